import type { Diagnostic, Severity } from '../diagnostic.js';
import type { PipelineGraph } from '../ir.js';
import type { GraphIndex } from './graph-index.js';

/**
 * One static check over a pipeline. Rules are pure: they read the graph and its index and return findings,
 * never throw for a bad pipeline (a throw means a bug in the rule).
 *
 * @example
 * const noDraftPrompts: LintRule = {
 *   id: 'no_draft_prompts',
 *   severity: 'warning',
 *   description: 'Prompts should not be marked [draft]',
 *   check: (graph) =>
 *     graph.nodes
 *       .filter((node) => node.attrs.prompt?.includes('[draft]'))
 *       .map((node) => ({ rule: 'no_draft_prompts', severity: 'warning', message: `Node "${node.id}" has a draft prompt.`, node_id: node.id, loc: node.loc })),
 * };
 */
export interface LintRule {
  /** Stable rule id, reported as `Diagnostic.rule` (snake_case, like the ids). */
  id: string;
  /** The severity the rule reports its findings with. */
  severity: Severity;
  /** One sentence: what the rule requires. */
  description: string;
  check(graph: PipelineGraph, index: GraphIndex): Diagnostic[];
}
