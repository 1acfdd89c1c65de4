import type { PipelineGraph } from '../compiler/ir.js';
import { isSuccessStatus, type StageStatus } from '../compiler/outcome.js';
import { findExitNodes } from '../compiler/validate/graph-index.js';
import { definedFields } from '../shared/defined-fields.js';
import type { RunQuality } from './run-types.js';

/** What a finished run's quality is read from: its final status and the context it ended with. */
export interface RunEndingInput {
  /** The pipeline actor's final status (`completed`, `failed`, `paused`, `cancelled`). */
  status: string;
  /** The node it stopped at. */
  stoppedAt?: string;
  /** Nodes whose outcome was FAIL at some point. */
  failedNodes: readonly string[];
  /** Last status of the nodes that did not succeed (sparse: a completed node absent from it succeeded). */
  nodeOutcomes: Readonly<Record<string, StageStatus>>;
  completedNodes: readonly string[];
}

export interface RunEnding {
  quality: RunQuality;
  /** Failed nodes whose latest visit succeeded: the failure was repaired (a red test made green). */
  recoveredNodes: string[];
  /** Set when a completed run ended at a node that is not an exit, because no edge was eligible. */
  deadEnd?: { node: string; reason: string };
}

/**
 * The quality of a run (docs/decisions/0161-dead-ends-are-reported.md): `failed` unless it completed; `degraded` when it
 * completed at a dead end, or some node's latest outcome is still FAIL (its failure was routed around,
 * not repaired); else `clean`, even if nodes failed on the way and later succeeded (`recoveredNodes`):
 * the red-to-green loop of a test-driven pipeline is its intended path.
 *
 * @example
 * runEnding(graph, { status: 'completed', stoppedAt: 'exit', failedNodes: ['test'], nodeOutcomes: {}, completedNodes: ['test'] });
 * // { quality: 'clean', recoveredNodes: ['test'] }
 */
/** `graph` undefined (it could not be read again): no dead end is told from an exit. */
export function runEnding(graph: PipelineGraph | undefined, input: RunEndingInput): RunEnding {
  const completed = new Set(input.completedNodes);
  const recoveredNodes = input.failedNodes.filter(
    (id) => completed.has(id) && isSuccessStatus(input.nodeOutcomes[id] ?? 'success'),
  );
  if (input.status !== 'completed') return { quality: 'failed', recoveredNodes };
  const at = input.stoppedAt;
  const deadEnd =
    graph !== undefined && at !== undefined && !findExitNodes(graph).some((node) => node.id === at)
      ? {
          node: at,
          reason: `ended at ${at}: ${graph.edges.some((edge) => edge.source === at) ? 'no edge matched' : 'it has no outgoing edge'}`,
        }
      : undefined;
  const unrepaired = input.failedNodes.length > recoveredNodes.length;
  return {
    quality: deadEnd || unrepaired ? 'degraded' : 'clean',
    recoveredNodes,
    ...definedFields({ deadEnd }),
  };
}
