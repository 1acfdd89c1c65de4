import type { PipelineGraph } from '../../compiler/ir.js';
import { AttractorError } from '../../shared/errors.js';
import type { ProviderStatus } from './configured-providers.js';
import { type LlmUse, llmUses } from './llm-uses.js';
import { type ModelChoice, type ResolvedModel, resolveModel } from './resolve-model.js';

export interface PlannedUse extends LlmUse {
  resolved: ResolvedModel;
}

/** One thing to fix before the run can start, and the nodes that need it. */
export interface PreflightProblem {
  /**
   * `provider`: `need` is the variable to set (or a sentence when no variable fixes it); `model`: the provider
   * is configured but nothing names a model for it (`need` is the provider), which no key would fix.
   */
  kind?: 'provider' | 'model';
  need: string;
  nodes: string[];
}

export interface PreflightReport {
  uses: PlannedUse[];
  problems: PreflightProblem[];
}

const ANY_KEY = 'one of ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY (or OPENAI_COMPATIBLE_BASE_URL)';

/**
 * Checks, before the first node runs, that every model the pipeline will call has its provider configured,
 * so a run does not fail an hour in for a key it could have asked for at the start.
 */
export function preflight(
  graph: PipelineGraph,
  providers: readonly ProviderStatus[],
  defaults: ModelChoice = {},
): PreflightReport {
  const uses = llmUses(graph, defaults).map((use) => ({
    ...use,
    resolved: resolveModel(use.choice, providers),
  }));
  const problems = new Map<string, PreflightProblem>();
  const add = (need: string, node: string, kind: 'provider' | 'model' = 'provider') => {
    const key = `${kind}:${need}`;
    const problem = problems.get(key) ?? { ...(kind === 'model' ? { kind } : {}), need, nodes: [] };
    if (!problem.nodes.includes(node)) problem.nodes.push(node);
    problems.set(key, problem);
  };
  for (const use of uses) {
    const { provider, model } = use.resolved;
    if (!provider) {
      add(ANY_KEY, use.nodeId);
      continue;
    }
    const status = providers.find((p) => p.name === provider);
    if (!status)
      add(
        `a known provider instead of "${provider}" (anthropic, openai, gemini, openai-compatible)`,
        use.nodeId,
      );
    else if (!status.configured) add(status.variable, use.nodeId);
    else if (!model) add(provider, use.nodeId, 'model');
  }
  return { uses, problems: [...problems.values()] };
}

const neededBy = (nodes: readonly string[]): string =>
  `needed by ${nodes.length === 1 ? 'node' : 'nodes'} ${nodes.join(', ')}`;

/**
 * The refusal `attractor run` prints (exit 1) when preflight found problems: providers to configure, and
 * (said apart, since no key fixes it) nodes whose provider has no default model and names none.
 */
export function preflightError(problems: readonly PreflightProblem[]): AttractorError {
  const missing = problems.filter((p) => p.kind !== 'model');
  const unnamed = problems.filter((p) => p.kind === 'model');
  const sentences: string[] = [];
  if (missing.length > 0) {
    const parts = missing.map((p) => `${p.need} (${neededBy(p.nodes)})`);
    sentences.push(
      `a model provider is not configured: set ${parts.join('; set ')}. Set keys in the environment or in a .env file of the working directory`,
    );
  }
  for (const p of unnamed) {
    sentences.push(
      `no model is named for provider ${p.need}, which has no default model (${neededBy(p.nodes)}): set llm_model on the node (or in the model stylesheet) or pass --model`,
    );
  }
  return new AttractorError(
    missing.length > 0 ? 'PROVIDER_NOT_CONFIGURED' : 'MODEL_NOT_NAMED',
    `cannot start the run, ${sentences.join('. Also, ')}. Or run without models using --dry-run, --scenario FILE or --replay FILE.`,
  );
}

/** `--verbose`: one line per model use, saying which model it will call and why. */
export function describePlan(uses: readonly PlannedUse[]): string[] {
  return uses.map((use) => {
    const { model, provider, source } = use.resolved;
    const why =
      source === 'environment'
        ? ` (${provider ?? '?'}’s balanced default, the first provider with a key; name another with --model)`
        : '';
    const what = use.kind === 'router' ? 'router' : 'agent';
    return `${use.nodeId}: ${what} model ${model ?? '?'} via ${provider ?? '?'}${why}`;
  });
}
