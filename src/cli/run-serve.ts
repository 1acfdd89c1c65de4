import os from 'node:os';
import path from 'node:path';
import { defaultServerDataDir } from '../server/default-data-dir.js';
import type { NotifySettings } from '../server/notify/notify-settings.js';
import { isServerSecretName } from '../server/server-secret-names.js';
import { startServer } from '../server/start-server.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import { refusePassthrough } from '../shared/process/filter-secret-env.js';
import { serverSandbox } from '../shared/sandbox/server-sandbox.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { CliContext } from './cli-context.js';
import { cliTelemetry } from './cli-telemetry.js';
import type { ServeFlags } from './commands/serve.js';
import { EXIT_OK } from './exit-codes.js';
import { notifySettings } from './notify-flags.js';

function wholeNumber(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    throw new AttractorError('BAD_FLAG', `${flag} must be a whole number >= ${min}, got "${value}".`);
  }
  return n;
}

/** `attractor serve`: runs until SIGTERM or Ctrl-C, which drain the running pipelines first. */
export async function runServe(flags: ServeFlags, ctx: CliContext): Promise<number> {
  const port = wholeNumber('--port', flags.port, 0);
  // Pipelines come from others: their commands never get this process's keys or credentials.
  const allowPassthrough = refusePassthrough(isServerSecretName);
  try {
    return await serving(flags, ctx, port);
  } finally {
    allowPassthrough();
  }
}

/** The server from its start to its drained stop. */
async function serving(flags: ServeFlags, ctx: CliContext, port: number): Promise<number> {
  const dataDir = flags.dataDir
    ? path.resolve(ctx.io.cwd, flags.dataDir)
    : defaultServerDataDir(ctx.io.cwd, ctx.io.env, os.homedir());
  const sandbox = serverSandbox(flags.unsandboxed === true, dataDir, 'serve');
  const server = await startServer(
    {
      host: flags.host,
      port,
      dataDir,
      ...definedFields({ store: flags.store }),
      maxConcurrentRuns: wholeNumber('--max-concurrent-runs', flags.maxConcurrentRuns, 1),
      allowTools: flags.allowTools === true,
      allowDirs: (flags.allowDir ?? []).map((d) => path.resolve(ctx.io.cwd, d)),
      allowWorkdirs: (flags.allowWorkdir ?? []).map((d) => path.resolve(ctx.io.cwd, d)),
      resumeInterrupted: flags.resumeInterrupted === true,
      fourEyes: flags.fourEyes === true,
      ...definedFields({ oidcIssuer: flags.oidcIssuer, oidcClientId: flags.oidcClientId }),
      ...(flags.oidcClientSecretFile !== undefined
        ? { oidcClientSecretFile: path.resolve(ctx.io.cwd, flags.oidcClientSecretFile) }
        : {}),
      ...(flags.token ? { token: flags.token } : {}),
      ...(flags.access !== undefined ? { access: path.resolve(ctx.io.cwd, flags.access) } : {}),
      ...definedFields({ corsOrigin: flags.corsOrigin, allowedHosts: flags.allowedHost }),
    },
    // Runs that call models get the same coding agent, router and budget as `attractor run`: keys and
    // base URLs come from the server's environment only, never from a .env a run's agent could write
    // (decision 0005); a missing key fails that run.
    {
      realRuns: { workingDir: ctx.io.cwd, env: { ...ctx.io.env } },
      sandbox,
      ...(await withTelemetry(flags, ctx)),
      ...withNotify(flags, ctx),
    },
  ).catch((error: unknown) => {
    if (AttractorError.isInstance(error) && error.code === 'PORT_IN_USE') {
      throw new AttractorError(
        'PORT_IN_USE',
        `port ${port} is already in use on ${flags.host}: stop what uses it, or choose another port with --port (--port 0 picks a free one).`,
        { cause: error },
      );
    }
    throw error;
  });
  const kept = flags.store
    ? `runs in ${redactPassword(flags.store)}, working copies in ${dataDir}`
    : `data in ${dataDir}`;
  ctx.io.stderr(`attractor serve: listening on ${server.url} (${kept})\n`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      ctx.io.stderr(`attractor serve: ${signal}: draining (running pipelines pause at their next node)\n`);
      void server.drain().then(resolve);
    };
    const onTerm = (): void => stop('SIGTERM');
    const onInt = (): void => stop('SIGINT');
    process.on('SIGTERM', onTerm);
    process.on('SIGINT', onInt);
  });
  ctx.io.stderr('attractor serve: stopped\n');
  return EXIT_OK;
}

async function withTelemetry(flags: ServeFlags, ctx: CliContext): Promise<{ telemetry?: Telemetry }> {
  const telemetry = await cliTelemetry(flags, ctx);
  return telemetry ? { telemetry } : {};
}

function withNotify(flags: ServeFlags, ctx: CliContext): { notify?: NotifySettings } {
  const notify = notifySettings(flags, ctx.io.cwd);
  return notify ? { notify } : {};
}

/** A store URL as it may be printed: without its password. */
function redactPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
