import type { PipelineGraph, PipelineNode } from '../ir.js';

/**
 * Visits of a node so far, kept in the context (so checkpoints and resume carry it, and conditions can
 * read it): `internal.visit_count.<node id>`. A retry of the same visit does not count.
 */
export function visitCountKey(nodeId: string): string {
  return `internal.visit_count.${nodeId}`;
}

export function visitCount(context: Readonly<Record<string, unknown>>, nodeId: string): number {
  const n = Number(context[visitCountKey(nodeId)] ?? 0);
  return Number.isFinite(n) ? n : 0;
}

/** The node's `max_visits`, else the graph's `default_max_visits`; undefined (or below 1) = unlimited. */
export function maxVisitsFor(
  node: PipelineNode,
  graph: PipelineGraph,
): { limit: number; attribute: 'max_visits' | 'default_max_visits' } | undefined {
  const own = node.attrs.max_visits;
  if (own !== undefined) return own >= 1 ? { limit: own, attribute: 'max_visits' } : undefined;
  const fallback = graph.attrs.default_max_visits;
  return fallback !== undefined && fallback >= 1
    ? { limit: fallback, attribute: 'default_max_visits' }
    : undefined;
}

/**
 * The failure reason when entering `node` went over its visit limit (the visit counted on entry), else
 * undefined. The node's handler does not run; the run routes this FAIL like any other, except that the
 * node's own `retry_target` (another visit) is skipped.
 */
export function visitLimitFailure(
  node: PipelineNode,
  graph: PipelineGraph,
  context: Readonly<Record<string, unknown>>,
): string | undefined {
  const max = maxVisitsFor(node, graph);
  if (!max) return undefined;
  const visits = visitCount(context, node.id);
  if (visits <= max.limit) return undefined;
  return `node "${node.id}" reached its visit limit (${max.attribute}=${max.limit}) and was not run a ${ordinal(visits)} time`;
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}
