import type { PipelineGraph } from '../../compiler/ir.js';
import { isPriced } from '../../llm/index.js';
import { AttractorError } from '../../shared/errors.js';
import type { PlannedUse } from './preflight.js';
import { formatUsd } from './usage-totals.js';

/**
 * A budget counts what the catalog prices: a call to a model it has no price for costs nothing as far as
 * the ledger knows, so a budgeted run would spend without limit. Refuses (`UNPRICED_MODEL`) a run with a
 * budget, the run's or a node's own, in which such a model would be called under that budget.
 */
export function refuseUnpricedModels(
  graph: PipelineGraph,
  uses: readonly PlannedUse[],
  runBudgetUsd: number | undefined,
): void {
  const budgeted = new Set(
    graph.nodes.filter((node) => (node.attrs.max_cost_usd ?? 0) > 0).map((node) => node.id),
  );
  const unpriced = new Map<string, string[]>();
  for (const use of uses) {
    const { model } = use.resolved;
    if (model === undefined || isPriced(model)) continue;
    if (runBudgetUsd === undefined && !budgeted.has(use.nodeId)) continue;
    unpriced.set(model, [...(unpriced.get(model) ?? []), use.nodeId]);
  }
  if (unpriced.size === 0) return;
  const which = [...unpriced].map(([model, nodes]) => `${model} (node ${nodes.join(', ')})`).join('; ');
  const budget =
    runBudgetUsd === undefined ? 'nodes with max_cost_usd' : `a budget of ${formatUsd(runBudgetUsd)}`;
  throw new AttractorError(
    'UNPRICED_MODEL',
    `the run has ${budget}, but the model catalog has no price for ${which}, so what those calls cost cannot be counted against it: name a model with a known price (llm_model, --model), or pass --allow-unpriced to run them uncounted.`,
  );
}
