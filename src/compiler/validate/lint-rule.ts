import type { Diagnostic, Severity } from '../diagnostic.js';
import type { PipelineGraph } from '../ir.js';
import type { GraphIndex } from './graph-index.js';

/**
 * One static check over a pipeline. Rules are pure: they read the graph and its index and return findings,
 * never throw for a bad pipeline (a throw means a bug in the rule).
 *
 * @example
 * const noTodo: LintRule = {
 *   id: 'no_todo',
 *   severity: 'warning',
 *   description: 'Prompts should not contain TODO',
 *   check: (graph) =>
 *     graph.nodes
 *       .filter((node) => node.attrs.prompt?.includes('TODO'))
 *       .map((node) => ({ rule: 'no_todo', severity: 'warning', message: `Node "${node.id}" has a TODO.`, node_id: node.id, loc: node.loc })),
 * };
 */
export interface LintRule {
  /** Stable rule id, reported as `Diagnostic.rule` (snake_case, like the seeds' ids). */
  id: string;
  /** The severity the rule reports its findings with. */
  severity: Severity;
  /** One sentence: what the rule requires. */
  description: string;
  check(graph: PipelineGraph, index: GraphIndex): Diagnostic[];
}
