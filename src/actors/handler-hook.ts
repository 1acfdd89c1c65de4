import type { PipelineNode } from '../compiler/ir.js';
import type { Outcome } from '../compiler/outcome.js';
import type { PipelineContext } from './pipeline-context.js';

/**
 * Code run around every handler invocation (`HandlerHook`), added with `registry.addHook()`:
 * before-hooks in registration order, after-hooks in reverse, in the run, its parallel branches and its
 * child pipelines. Both may be async. A before-hook that throws fails the node with its message (the
 * handler does not run); an after-hook that throws turns the outcome into FAIL with its message
 * (decision 0034). Hooks may `set` context values and `appendLog` like the handler.
 *
 * @example
 * registry.addHook({
 *   name: 'audit',
 *   afterExecute: (node, _context, outcome) => console.log(node.id, outcome.status),
 * });
 */
export interface HandlerHook {
  /** Named in the failure reason when the hook throws. */
  name?: string;
  beforeExecute?(node: PipelineNode, context: PipelineContext): void | Promise<void>;
  afterExecute?(node: PipelineNode, context: PipelineContext, outcome: Outcome): void | Promise<void>;
}
