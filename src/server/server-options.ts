import { z } from 'zod';

/** `attractor serve` settings (flags, or the library's `createServer` options). */
export const ServerOptionsSchema = z.object({
  host: z.string().default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(8000),
  dataDir: z.string().default('.attractor-server'),
  /** Required when `host` is not a loopback address; then every request needs `Authorization: Bearer`. */
  token: z.string().min(1).optional(),
  maxConcurrentRuns: z.number().int().positive().default(4),
  allowTools: z.boolean().default(false),
  /** Directories `dot_path` may name files in (default: none, so only `dot_source` is accepted). */
  allowDirs: z.array(z.string()).default([]),
  corsOrigin: z.string().optional(),
  bodyLimitBytes: z
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  heartbeatMs: z.number().int().positive().default(15_000),
  /** Messages an SSE subscriber may leave unread before it is dropped. */
  sseMaxQueued: z.number().int().positive().default(10_000),
  resumeInterrupted: z.boolean().default(false),
});
export type ServerOptions = z.output<typeof ServerOptionsSchema>;
export type ServerOptionsInput = z.input<typeof ServerOptionsSchema>;

const LOOPBACK = /^(127(?:\.\d{1,3}){3}|::1|localhost)$/i;
export const isLoopback = (host: string): boolean => LOOPBACK.test(host);
