import os from 'node:os';
import * as z from 'zod';
import { defaultServerDataDir } from './default-data-dir.js';

/** `attractor serve` settings (flags, or the library's `createServer` options). */
export const ServerOptionsSchema = z.object({
  host: z.string().default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(8000),
  /** Default: outside the working directory, where runs work (`defaultServerDataDir`). */
  dataDir: z.string().default(() => defaultServerDataDir(process.cwd(), process.env, os.homedir())),
  /**
   * Where runs are recorded: absent, the file store under `dataDir`; a `postgres://` (or `postgresql://`)
   * URL, PostgreSQL (run directories stay under `dataDir` as working copies).
   */
  store: z
    .string()
    .refine((url) => /^postgres(ql)?:\/\//.test(url), {
      message: 'a store is a PostgreSQL URL: postgres://user@host:port/database',
    })
    .optional(),
  /** Required when `host` is not a loopback address; then every request needs `Authorization: Bearer`. */
  token: z.string().min(1).optional(),
  /** `--access FILE`: roles of signed-in people by user and group (YAML or JSON, `auth/access-file.ts`). */
  access: z.string().min(1).optional(),
  /** Sign-in with OpenID Connect: the issuer URL, the client id and a file holding the client secret. */
  oidcIssuer: z.url().optional(),
  oidcClientId: z.string().min(1).optional(),
  oidcClientSecretFile: z.string().min(1).optional(),
  /** Every gate refuses an answer from the person who started its run (as `human.four_eyes=true`). */
  fourEyes: z.boolean().default(false),
  maxConcurrentRuns: z.number().int().positive().default(4),
  allowTools: z.boolean().default(false),
  /**
   * Directories `dot_path` may name files in, and the only ones any submitted pipeline may read named
   * files (`@file` prompts, child dotfiles) from (default: none).
   */
  allowDirs: z.array(z.string()).default([]),
  /**
   * Folders a submission's `working_dir` may lie in (`--allow-workdir`; default none). Only where runs
   * execute: with `store`, workers are given theirs.
   */
  allowWorkdirs: z.array(z.string()).default([]),
  /**
   * More `Host` names the server answers to (`name` on any port, or `name:port`), besides the address it
   * is bound to; required when it is bound to every interface (`0.0.0.0`, `::`).
   */
  allowedHosts: z.array(z.string().min(1)).default([]),
  /** Web origins (`https://app.example`) allowed to call the API from a browser: CORS and the Origin check. */
  corsOrigin: z
    .union([z.string(), z.array(z.string())])
    .default([])
    .transform((value) => (typeof value === 'string' ? [value] : value))
    .pipe(
      z.array(
        z.string().refine(isOrigin, {
          message: 'a CORS origin is scheme://host[:port], such as https://app.example (no "*", no path)',
        }),
      ),
    ),
  bodyLimitBytes: z
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  heartbeatMs: z.number().int().positive().default(15_000),
  /** Bytes an SSE subscriber may leave unread before it is dropped (decision 0001). */
  sseMaxQueuedBytes: z
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  /** How long a dropped SSE subscriber may take to read its backlog before its connection is cut. */
  sseDropGraceMs: z.number().int().positive().default(10_000),
  resumeInterrupted: z.boolean().default(false),
});
export type ServerOptions = z.output<typeof ServerOptionsSchema>;
export type ServerOptionsInput = z.input<typeof ServerOptionsSchema>;

/** `https://app.example:8443` exactly: what a browser sends as `Origin`. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

const LOOPBACK = /^(127(?:\.\d{1,3}){3}|::1|localhost)$/i;
export const isLoopback = (host: string): boolean => LOOPBACK.test(host);
