import path from 'node:path';
import type { NotifySettings } from '../server/notify/notify-settings.js';
import { isServerSecretName } from '../server/server-secret-names.js';
import { AttractorError } from '../shared/errors.js';
import { printableText } from '../shared/printable-text.js';
import { refusePassthrough } from '../shared/process/filter-secret-env.js';
import { serverSandbox } from '../shared/sandbox/server-sandbox.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { startWorker } from '../worker/start-worker.js';
import { workerEventLine } from '../worker/worker-run-event.js';
import type { CliContext } from './cli-context.js';
import { cliTelemetry } from './cli-telemetry.js';
import type { WorkerFlags } from './commands/worker.js';
import { EXIT_OK } from './exit-codes.js';
import { notifySettings } from './notify-flags.js';

/** `attractor worker`: runs until SIGTERM or Ctrl-C, which drain the runs it executes first. */
export async function runWorker(flags: WorkerFlags, ctx: CliContext): Promise<number> {
  const concurrency = Number(flags.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new AttractorError(
      'BAD_FLAG',
      `--concurrency must be a whole number >= 1, got "${flags.concurrency}".`,
    );
  }
  const lease = Number(flags.leaseSeconds);
  if (!Number.isFinite(lease) || lease < 1) {
    throw new AttractorError(
      'BAD_FLAG',
      `--lease-seconds must be a number >= 1, got "${flags.leaseSeconds}".`,
    );
  }
  if (!/^postgres(ql)?:\/\//.test(flags.store)) {
    throw new AttractorError(
      'BAD_FLAG',
      `--store must be a PostgreSQL URL (postgres://user@host:port/database), got "${flags.store}".`,
    );
  }
  // Pipelines come from others: their commands never get this process's keys or credentials.
  const allowPassthrough = refusePassthrough(isServerSecretName);
  try {
    return await serving(flags, ctx, concurrency, lease);
  } finally {
    allowPassthrough();
  }
}

/** The worker from its start to its drained stop. */
async function serving(
  flags: WorkerFlags,
  ctx: CliContext,
  concurrency: number,
  lease: number,
): Promise<number> {
  const dataDir = path.resolve(ctx.io.cwd, flags.dataDir);
  const worker = await startWorker({
    store: flags.store,
    dataDir,
    sandbox: serverSandbox(flags.unsandboxed === true, dataDir, 'worker'),
    ...(await withTelemetry(flags, ctx)),
    ...withNotify(flags, ctx),
    concurrency,
    leaseMs: lease * 1000,
    allowTools: flags.allowTools === true,
    allowDirs: (flags.allowDir ?? []).map((d) => path.resolve(ctx.io.cwd, d)),
    allowWorkdirs: (flags.allowWorkdir ?? []).map((d) => path.resolve(ctx.io.cwd, d)),
    // Agents work in each run's folder; provider keys and base URLs come from the worker's environment
    // only, never from a .env file (decision 0005).
    realRuns: { workingDir: ctx.io.cwd, env: { ...ctx.io.env } },
    ...(flags.gitRemote ? { gitRemote: remoteUrl(flags.gitRemote, ctx.io.cwd) } : {}),
    onError: (error) => ctx.io.stderr(`attractor worker: the PostgreSQL store: ${error.message}\n`),
    onRunEvent: (event) =>
      flags.json
        ? ctx.io.stdout(`${JSON.stringify({ ...event, at: new Date().toISOString() })}\n`)
        : ctx.io.stderr(`attractor worker: ${printableText(workerEventLine(event))}\n`),
  });
  ctx.io.stderr(
    `attractor worker: executing runs (${concurrency} at once, working copies in ${flags.dataDir})\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      ctx.io.stderr(`attractor worker: ${signal}: draining (running pipelines pause at their next node)\n`);
      void worker.drain().then(resolve);
    };
    const onTerm = (): void => stop('SIGTERM');
    const onInt = (): void => stop('SIGINT');
    process.on('SIGTERM', onTerm);
    process.on('SIGINT', onInt);
  });
  ctx.io.stderr('attractor worker: stopped\n');
  return EXIT_OK;
}

async function withTelemetry(flags: WorkerFlags, ctx: CliContext): Promise<{ telemetry?: Telemetry }> {
  const telemetry = await cliTelemetry(flags, ctx);
  return telemetry ? { telemetry } : {};
}

/** A worker serves no page of its own: its notifications link to the servers' (`--public-url`). */
function withNotify(flags: WorkerFlags, ctx: CliContext): { notify?: NotifySettings } {
  const notify = notifySettings(flags, ctx.io.cwd);
  if (notify && notify.publicUrl === undefined)
    throw new AttractorError(
      'BAD_FLAG',
      "--notify on a worker needs --public-url URL: the servers' address, which the notifications link to.",
    );
  return notify ? { notify } : {};
}

/** A remote given as a relative folder is resolved here: git runs it from each run's own folder. */
export function remoteUrl(remote: string, cwd: string): string {
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(remote) || /^[^/]+:/.test(remote);
  return isUrl || path.isAbsolute(remote) ? remote : path.resolve(cwd, remote);
}
