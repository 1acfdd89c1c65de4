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
  /** The variable to set, or a sentence when no variable fixes it. */
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
  const problems = new Map<string, string[]>();
  const add = (need: string, node: string) => {
    const nodes = problems.get(need) ?? [];
    if (!nodes.includes(node)) nodes.push(node);
    problems.set(need, nodes);
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
    else if (!model) add(`a model name for provider ${provider} (llm_model or --model)`, use.nodeId);
  }
  return { uses, problems: [...problems].map(([need, nodes]) => ({ need, nodes })) };
}

/** The refusal `attractor run` prints (exit 1) when preflight found problems. */
export function preflightError(problems: readonly PreflightProblem[]): AttractorError {
  const parts = problems.map(
    (p) => `${p.need} (needed by ${p.nodes.length === 1 ? 'node' : 'nodes'} ${p.nodes.join(', ')})`,
  );
  return new AttractorError(
    'PROVIDER_NOT_CONFIGURED',
    `cannot start the run, a model provider is not configured: set ${parts.join('; set ')}. Set keys in the environment or in a .env file of the working directory; or run without models using --dry-run, --scenario FILE or --replay FILE.`,
  );
}

/** `--verbose`: one line per model use, saying which model it will call and why. */
export function describePlan(uses: readonly PlannedUse[]): string[] {
  return uses.map((use) => {
    const { model, provider, source } = use.resolved;
    const why = source === 'environment' ? ' (first configured provider’s default)' : '';
    const what = use.kind === 'router' ? 'router' : 'agent';
    return `${use.nodeId}: ${what} model ${model ?? '?'} via ${provider ?? '?'}${why}`;
  });
}
