import { existsSync } from 'node:fs';
import path from 'node:path';
import { createAgentBackend } from '../actors/agent/backend/agent-backend.js';
import { configuredProviders, type ProviderStatus } from '../actors/agent/backend/configured-providers.js';
import { createLlmRouter } from '../actors/agent/backend/llm-router.js';
import { routerChoice } from '../actors/agent/backend/llm-uses.js';
import { describePlan, preflight, preflightError } from '../actors/agent/backend/preflight.js';
import { createRunRecorder, createRunReplayer, type RunPaths } from '../actors/agent/backend/run-cassette.js';
import { UsageLedger } from '../actors/agent/backend/usage-ledger.js';
import { formatUsd, UsageTotalsSchema } from '../actors/agent/backend/usage-totals.js';
import type { CodergenBackend } from '../actors/codergen-backend.js';
import type { HandlerServices } from '../actors/handler-types.js';
import { compile } from '../compiler/compile.js';
import type { ReadScope } from '../compiler/files/read-scope.js';
import { LLMClient, loadDotEnv, type Middleware } from '../llm/index.js';
import { readCheckpoint } from '../machines/checkpoint.js';
import { AttractorError } from '../shared/errors.js';
import type { CliContext } from './cli-context.js';
import type { RunFlags } from './run-flags.js';

export interface RealRunInput {
  source: string;
  file: string;
  /** On resume: the checkpoint whose usage the run continues from. */
  checkpointPath?: string;
  /** Where the pipeline may read the files it names (the CLI's or the server's scope). */
  readScope?: ReadScope;
}

export interface RealRunServices {
  backend: CodergenBackend;
  llmRank: NonNullable<HandlerServices['llmRank']>;
  accounting: UsageLedger;
  workingDir: string;
  /** Tell the cassette where the run directory is, once the run has one. */
  setRunDir(runDir: string): void;
}

function parseMaxCost(value: string | undefined, from: string): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) {
    throw new AttractorError('BAD_FLAG', `${from} must be a positive number of US dollars, got "${value}".`);
  }
  return n;
}

/** Providers a replay may resolve to: those the cassette's calls went to (no key is needed to replay them). */
function replayProviders(providers: readonly ProviderStatus[], recorded: Set<string>): ProviderStatus[] {
  return providers.map((p) => ({ ...p, configured: recorded.has(p.name) }));
}

/**
 * What a real run (no `--dry-run`, no `--scenario`) needs: the provider preflight, the LLM client (with the
 * cassette of `--record` / `--replay`), the agent backend, the LLM router and the usage ledger with the budget
 * of `--max-cost` or the graph's `max_cost_usd`.
 */
export function realRunServices(flags: RunFlags, ctx: CliContext, input: RealRunInput): RealRunServices {
  if (flags.record && flags.replay) {
    throw new AttractorError('BAD_FLAG', '--record and --replay cannot be used together.');
  }
  const workingDir = path.resolve(ctx.io.cwd, flags.workdir ?? '.');
  if (!existsSync(workingDir)) {
    throw new AttractorError('BAD_FLAG', `--workdir ${flags.workdir}: no such directory.`);
  }
  const env = loadDotEnv(workingDir, ctx.io.env);
  const compiled = compile(input.source, {
    file: input.file,
    ...(input.readScope ? { readScope: input.readScope } : {}),
    ...(flags.goal !== undefined ? { goal: flags.goal } : {}),
  });
  const graph = compiled.graph;
  const defaults = {
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.provider ? { provider: flags.provider } : {}),
  };
  const paths: RunPaths = { workingDir };
  let providers = configuredProviders(env);
  const middleware: Middleware[] = [];
  if (flags.replay) {
    const replayer = createRunReplayer(path.resolve(ctx.io.cwd, flags.replay), paths);
    providers = replayProviders(providers, replayer.recordedProviders());
    middleware.push(replayer);
  } else {
    const report = preflight(graph, providers, defaults);
    if (ctx.verbose()) for (const line of describePlan(report.uses)) ctx.io.stderr(`attractor: ${line}\n`);
    if (report.problems.length > 0) throw preflightError(report.problems);
  }
  if (flags.record) middleware.push(createRunRecorder(path.resolve(ctx.io.cwd, flags.record), paths));

  const maxCost =
    parseMaxCost(flags.maxCost, '--max-cost') ?? parseMaxCost(graph.extra['max_cost_usd'], 'max_cost_usd');
  const initial = input.checkpointPath ? readCheckpoint(input.checkpointPath).usage : undefined;
  const parsed = initial ? UsageTotalsSchema.safeParse(initial) : undefined;
  const ledger = new UsageLedger({
    ...(maxCost !== undefined ? { maxCostUsd: maxCost } : {}),
    ...(parsed?.success ? { initial: parsed.data } : {}),
  });
  if (ledger.overBudget) {
    throw new AttractorError(
      'BUDGET_EXCEEDED',
      `the run has already cost ${formatUsd(ledger.runTotals().cost_usd)}, which is its whole budget of ${formatUsd(maxCost ?? 0)}: give it more with --max-cost USD.`,
    );
  }
  // Keys come from the environment and the working directory's .env, never from the process's own cwd.
  // A replay answers every call inside the middleware chain: it needs no adapter, hence no key.
  // With no provider configured the preflight has made sure no node needs one (a tool-only pipeline),
  // so the run gets a client without adapters rather than fromEnv's refusal.
  const client =
    flags.replay || !providers.some((p) => p.configured)
      ? new LLMClient({ middleware })
      : LLMClient.fromEnv({ env, dotenv: false, middleware });
  return {
    backend: createAgentBackend({
      client,
      workingDir,
      providers,
      ledger,
      defaults,
      graphExtra: graph.extra,
      ...(graph.attrs.env_passthrough ? { graphEnvPassthrough: graph.attrs.env_passthrough } : {}),
      ...(graph.attrs.auto_compact !== undefined ? { graphAutoCompact: graph.attrs.auto_compact } : {}),
    }),
    llmRank: createLlmRouter({ client, choice: routerChoice(graph, defaults), providers, ledger }),
    accounting: ledger,
    workingDir,
    setRunDir: (runDir) => {
      paths.runDir = runDir;
    },
  };
}
