import { readExtraAttribute } from '../../compiler/attributes/read-extra-attribute.js';
import type { PipelineGraph } from '../../compiler/ir.js';
import { LLMClient, loadDotEnv, type Middleware } from '../../llm/index.js';
import { definedFields } from '../../shared/defined-fields.js';
import { AttractorError } from '../../shared/errors.js';
import type { CodergenBackend } from '../codergen-backend.js';
import type { HandlerServices } from '../handler-types.js';
import { createAgentBackend } from './agent-backend.js';
import { configuredProviders, type ProviderStatus } from './configured-providers.js';
import { createLlmRouter } from './llm-router.js';
import { routerChoice } from './llm-uses.js';
import { describePlan, preflight, preflightError } from './preflight.js';
import { createRunRecorder, createRunReplayer, type RunPaths } from './run-cassette.js';
import { refuseUnpricedModels } from './unpriced-models.js';
import { UsageLedger } from './usage-ledger.js';
import { formatUsd, type UsageTotals, UsageTotalsSchema } from './usage-totals.js';

/** What a run that calls real models is given: where its agents work, its keys, its defaults and budget. */
export interface RealRunSettings {
  /** Where the agents work. */
  workingDir: string;
  /** The environment provider keys and base URLs come from (never the process's own working directory). */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Let the working directory's `.env` add provider keys and base URLs to `env` (the CLI: one person's
   * own folder). Off unless asked: where the folder is one a pipeline's agents write in (a server's or
   * worker's runs), its `.env` could send the process's key to another host.
   */
  readDotEnv?: boolean;
  /** Default model and provider for LLM nodes that name none. */
  model?: string;
  provider?: string;
  /** The run's budget in USD (overrides the graph's `max_cost_usd`). */
  maxCostUsd?: number;
  /** Run models the catalog has no price for under a budget, uncounted (`--allow-unpriced`). */
  allowUnpriced?: boolean;
  /** Keep every model exchange in this cassette (absolute path). */
  recordTo?: string;
  /** Answer every model call from this cassette (absolute path): no key is needed. */
  replayFrom?: string;
  /** A resumed run's usage so far (its checkpoint's `usage`): the budget counts on from there. */
  initialUsage?: unknown;
  /** Where the plan of model uses is told (each node and the model it will use), when someone listens. */
  onPlan?: (lines: readonly string[]) => void;
}

export interface RealRunServices {
  backend: CodergenBackend;
  llmRank: NonNullable<HandlerServices['llmRank']>;
  accounting: UsageLedger;
  workingDir: string;
  /** Tell the cassette where the run directory is, once the run has one. */
  setRunDir(runDir: string): void;
}

/** The graph's `max_cost_usd`: a bad value is the pipeline's fault (exit 1), named as the attribute. */
function parseMaxCost(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) {
    throw new AttractorError(
      'MAX_COST_INVALID',
      `max_cost_usd must be a positive number of US dollars, got "${value}".`,
    );
  }
  return n;
}

/** Providers a replay may resolve to: those the cassette's calls went to (no key is needed to replay them). */
function replayProviders(providers: readonly ProviderStatus[], recorded: Set<string>): ProviderStatus[] {
  return providers.map((p) => ({ ...p, configured: recorded.has(p.name) }));
}

/**
 * What a run of `graph` that calls real models needs: the provider preflight (a missing key refuses the
 * run before its first node), one LLM client for the whole run (with the cassette of a record or replay),
 * the coding-agent backend, the router model for `llm_decide` edges and fan-in ranking, and the usage
 * ledger that keeps the budget.
 *
 * @example
 * const real = createRealRunServices(compiled.graph, { workingDir: process.cwd(), env: process.env });
 * const run = startPipeline({ compiled, ...real, runsRoot: '.attractor-runs' });
 */
export function createRealRunServices(graph: PipelineGraph, settings: RealRunSettings): RealRunServices {
  if (settings.recordTo && settings.replayFrom) {
    throw new AttractorError('BAD_FLAG', 'a run cannot record and replay its model calls at once.');
  }
  const { workingDir } = settings;
  const env = settings.readDotEnv ? loadDotEnv(workingDir, { ...settings.env }) : { ...settings.env };
  const defaults = {
    ...(settings.model ? { model: settings.model } : {}),
    ...(settings.provider ? { provider: settings.provider } : {}),
  };
  const paths: RunPaths = { workingDir };
  const maxCost = settings.maxCostUsd ?? parseMaxCost(readExtraAttribute(graph.extra, 'max_cost_usd'));
  let providers = configuredProviders(env);
  const middleware: Middleware[] = [];
  if (settings.replayFrom) {
    const replayer = createRunReplayer(settings.replayFrom, paths);
    providers = replayProviders(providers, replayer.recordedProviders());
    middleware.push(replayer);
  } else {
    const report = preflight(graph, providers, defaults);
    settings.onPlan?.(describePlan(report.uses));
    if (report.problems.length > 0) throw preflightError(report.problems);
    if (!settings.allowUnpriced) refuseUnpricedModels(graph, report.uses, maxCost);
  }
  if (settings.recordTo) middleware.push(createRunRecorder(settings.recordTo, paths));

  const initial =
    settings.initialUsage === undefined ? undefined : UsageTotalsSchema.safeParse(settings.initialUsage);
  const ledger = new UsageLedger({
    ...definedFields({ maxCostUsd: maxCost }),
    ...(initial?.success ? { initial: initial.data satisfies UsageTotals } : {}),
  });
  if (ledger.overBudget) {
    throw new AttractorError(
      'BUDGET_EXCEEDED',
      `the run has already cost ${formatUsd(ledger.runTotals().cost_usd)}, which is its whole budget of ${formatUsd(maxCost ?? 0)}: give it more with --max-cost USD.`,
    );
  }
  // A replay answers every call inside the middleware chain: it needs no adapter, hence no key. With no
  // provider configured the preflight has made sure no node needs one (a tool-only pipeline), so the
  // run gets a client without adapters rather than fromEnv's refusal.
  const client =
    settings.replayFrom || !providers.some((p) => p.configured)
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
      ...definedFields({ graphAutoCompact: graph.attrs.auto_compact }),
    }),
    llmRank: createLlmRouter({ client, choice: routerChoice(graph, defaults), providers, ledger }),
    accounting: ledger,
    workingDir,
    setRunDir: (runDir) => {
      paths.runDir = runDir;
    },
  };
}
