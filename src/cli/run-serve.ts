import path from 'node:path';
import type { ReadScope } from '../compiler/files/read-scope.js';
import type { RunOptions } from '../machines/run-types.js';
import type { RunRecord } from '../server/run-record.js';
import { startServer } from '../server/start-server.js';
import { AttractorError } from '../shared/errors.js';
import type { CliContext } from './cli-context.js';
import type { ServeFlags } from './commands/serve.js';
import { EXIT_OK } from './exit-codes.js';
import { realRunServices } from './real-run-services.js';

function wholeNumber(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    throw new AttractorError('BAD_FLAG', `${flag} must be a whole number >= ${min}, got "${value}".`);
  }
  return n;
}

/** `attractor serve`: runs until SIGTERM or Ctrl-C, which drain the running pipelines first. */
export async function runServe(flags: ServeFlags, ctx: CliContext): Promise<number> {
  // Runs that call models get the same agent backend, router and budget as `attractor run`: keys come
  // from the server's environment (and the working directory's .env); a missing key fails that run.
  const realRunOptions = (record: RunRecord, source: string, readScope: ReadScope): Partial<RunOptions> => {
    const real = realRunServices(
      {
        ...(record.options.model ? { model: record.options.model } : {}),
        ...(record.options.goal !== undefined ? { goal: record.options.goal } : {}),
        ...(record.options.max_cost_usd !== undefined
          ? { maxCost: String(record.options.max_cost_usd) }
          : {}),
      },
      ctx,
      {
        source,
        file: record.source_file === '<inline>' ? path.join(ctx.io.cwd, 'pipeline.dot') : record.source_file,
        readScope,
      },
    );
    return {
      backend: real.backend,
      llmRank: real.llmRank,
      accounting: real.accounting,
      workingDir: real.workingDir,
    };
  };
  const port = wholeNumber('--port', flags.port, 0);
  const server = await startServer(
    {
      host: flags.host,
      port,
      dataDir: path.resolve(ctx.io.cwd, flags.dataDir),
      maxConcurrentRuns: wholeNumber('--max-concurrent-runs', flags.maxConcurrentRuns, 1),
      allowTools: flags.allowTools === true,
      allowDirs: (flags.allowDir ?? []).map((d) => path.resolve(ctx.io.cwd, d)),
      resumeInterrupted: flags.resumeInterrupted === true,
      ...(flags.token ? { token: flags.token } : {}),
      ...(flags.corsOrigin ? { corsOrigin: flags.corsOrigin } : {}),
      ...(flags.allowedHost ? { allowedHosts: flags.allowedHost } : {}),
    },
    { realRunOptions },
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
  ctx.io.stderr(`attractor serve: listening on ${server.url} (data in ${flags.dataDir})\n`);
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
