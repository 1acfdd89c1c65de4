import { checkGoalGates, type GoalGateResult, type NextStep, nextStep } from '../compiler/routing.js';
import type { PipelineMachineContext } from './pipeline-context.js';
import type { GraphLookup } from './pipeline-runtime.js';
import { visitValuesView } from './visit-counts.js';

const steps = new WeakMap<PipelineMachineContext, NextStep>();
const gates = new WeakMap<PipelineMachineContext, GoalGateResult>();

/**
 * The compiler's `nextStep` for the node that just ran, asked once per context: every routing guard of
 * a settled handler reads the same answer (they all get the one context `settledNode` made). The context
 * is never mutated, so a context object is a sound cache key.
 */
export function stepAfter(lookup: GraphLookup, context: PipelineMachineContext, nodeId: string): NextStep {
  let step = steps.get(context);
  if (!step) {
    step = nextStep({
      graph: lookup.graph,
      node: lookup.node(nodeId),
      outcome: context.lastOutcome ?? { status: 'success' },
      context: visitValuesView(context.values, context.visits),
      edges: lookup.outgoing(nodeId),
      ...(context.llmChoice ? { llmChoice: context.llmChoice } : {}),
    });
    steps.set(context, step);
  }
  return step;
}

/** The compiler's `checkGoalGates`, asked once per context. */
export function goalGatesAt(lookup: GraphLookup, context: PipelineMachineContext): GoalGateResult {
  let result = gates.get(context);
  if (!result) {
    result = checkGoalGates({
      graph: lookup.graph,
      nodeOutcomes: context.nodeOutcomes,
      context: visitValuesView(context.values, context.visits),
    });
    gates.set(context, result);
  }
  return result;
}
