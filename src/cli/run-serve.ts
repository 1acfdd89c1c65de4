import path from 'node:path';
import { loadDotEnv } from '../llm/env-config.js';
import { startServer } from '../server/start-server.js';
import { AttractorError } from '../shared/errors.js';
import { serverSandbox } from '../shared/sandbox/server-sandbox.js';
import type { CliContext } from './cli-context.js';
import type { ServeFlags } from './commands/serve.js';
import { EXIT_OK } from './exit-codes.js';

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
  const dataDir = path.resolve(ctx.io.cwd, flags.dataDir);
  const sandbox = serverSandbox(flags.unsandboxed === true, dataDir, 'serve');
  const server = await startServer(
    {
      host: flags.host,
      port,
      dataDir,
      ...(flags.store !== undefined ? { store: flags.store } : {}),
      maxConcurrentRuns: wholeNumber('--max-concurrent-runs', flags.maxConcurrentRuns, 1),
      allowTools: flags.allowTools === true,
      allowDirs: (flags.allowDir ?? []).map((d) => path.resolve(ctx.io.cwd, d)),
      allowWorkdirs: (flags.allowWorkdir ?? []).map((d) => path.resolve(ctx.io.cwd, d)),
      resumeInterrupted: flags.resumeInterrupted === true,
      ...(flags.token ? { token: flags.token } : {}),
      ...(flags.corsOrigin ? { corsOrigin: flags.corsOrigin } : {}),
      ...(flags.allowedHost ? { allowedHosts: flags.allowedHost } : {}),
    },
    // Runs that call models get the same coding agent, router and budget as `attractor run`: keys come
    // from the server's environment (and the working directory's .env); a missing key fails that run.
    // A run that names its working_dir still takes keys from the .env where the server was started.
    { realRuns: { workingDir: ctx.io.cwd, env: loadDotEnv(ctx.io.cwd, { ...ctx.io.env }) }, sandbox },
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
    ? `runs in ${redactPassword(flags.store)}, working copies in ${flags.dataDir}`
    : `data in ${flags.dataDir}`;
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
