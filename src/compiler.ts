/**
 * `attractor-pipelines/compiler`: the compiler's parts, for tools that read, check or transform pipelines — the
 * parser, the graph types, transforms and lint rules (passed to one compilation as `transforms` / `rules`;
 * there is no global registry), and the pure functions the engine routes with, to test a pipeline's
 * routing without running it. Explicit named exports only.
 *
 * @example
 * import { loadPipeline } from 'attractor-pipelines';
 * import { outgoingEdges, selectEdge } from 'attractor-pipelines/compiler';
 * const { graph } = loadPipeline(source);
 * const edge = selectEdge({ edges: outgoingEdges(graph, 'review'), outcome: { status: 'fail' }, context: {} });
 */

export { parseAcceleratorKey } from './compiler/accelerator.js';
export { evaluateCondition } from './compiler/conditions/index.js';
export { incomingEdges, outgoingEdges } from './compiler/graph-edges.js';
export {
  type EdgeAttrs,
  type GraphAttrs,
  type NodeAttrs,
  type PipelineEdge,
  type PipelineGraph,
  type PipelineNode,
  SHAPE_HANDLERS,
} from './compiler/ir.js';
export type { MachineConfig } from './compiler/lower/machine-config.js';
export { parseDot } from './compiler/parse/parse-dot.js';
export {
  checkGoalGates,
  type EdgeSelectionInput,
  type FailureRoutingInput,
  type GoalGateInput,
  type NextStepInput,
  nextStep,
  type RoutingStep,
  routeFailure,
  selectEdge,
} from './compiler/routing.js';
export { applyTransforms, type Transform, type TransformContext } from './compiler/transforms/index.js';
export type { LintRule } from './compiler/validate/lint-rule.js';
export { hasErrors, type ValidateOptions, validate } from './compiler/validate/validate.js';
