import type { ContextLogEntry } from '../actors/pipeline-context.js';
import type { FidelityMode } from '../compiler/ir.js';
import type { Outcome, StageStatus } from '../compiler/outcome.js';
import type { DeepReadonly } from '../shared/deep-readonly.js';
import { definedFields } from '../shared/defined-fields.js';
import type { Route } from './route.js';
import { splitVisitCounts, type VisitCounts } from './visit-counts.js';

/**
 * The pipeline actor's context: everything a checkpoint needs, nothing that grows with the run's
 * length (completed nodes are a set, events stream to disk). Read-only all the way down: actions replace
 * it (`assign`), so a snapshot an inspector or subscriber kept never changes after the fact.
 */
export type PipelineMachineContext = DeepReadonly<MachineContextShape>;

interface MachineContextShape {
  /** The context store the nodes read and write, without the visit counts (see `visits`). */
  values: Record<string, unknown>;
  /**
   * Visits per node, published as `internal.visit_count.<node>` values: everything outside the machine
   * (handlers, conditions, checkpoints, results) sees them among the values (machines/visit-counts.ts).
   */
  visits: VisitCounts;
  /** Distinct nodes that completed, in first-completion order. */
  completedNodes: string[];
  /** Last status of visited goal gates and of nodes that did not succeed (goal gates read it at exit); a completed node absent from it succeeded. */
  nodeOutcomes: Record<string, StageStatus>;
  /** Retries used by each node's current (or last unfinished) visit. */
  nodeRetries: Record<string, number>;
  /** Handlers' `appendLog` entries, oldest first (the checkpoint's `logs`; grows only with what handlers log). */
  logs: readonly ContextLogEntry[];
  /** Node visits so far, retries included; counted across loop restarts. */
  steps: number;
  maxSteps: number;
  lastNode?: string;
  lastOutcome?: Outcome;
  /** Target the router model picked for `llm_decide` edges on the last node. */
  llmChoice?: string;
  /** Index of the edge that led to the current node (edge fidelity and thread id). */
  arrivedBy?: number;
  retryPending: boolean;
  /** Where the node that just ran goes: decided in its `route` state, once its outcome is recorded. */
  route?: Route;
  /** The wait before the pending retry, decided when the retry was (`node.retry`'s `delay_ms`). */
  retryDelayMs?: number;
  jumpTo?: string;
  failure?: { node?: string; reason: string };
  /** Distinct nodes whose final outcome was FAIL: the run quality (clean/degraded/failed). */
  failedNodes: string[];
  pauseRequested: boolean;
  restarts: number;
  /** Set when this actor runs one branch of a parallel node. */
  branch: boolean;
  /** Where the run stopped: exit node, paused node, branch fan-in, failing node. */
  stoppedAt?: string;
  /** Why the run was paused at once (`PAUSE_NOW`), e.g. its cost budget was spent. */
  pausedFor?: { reason: string; message: string };
  /** After a resume, the first `full`-fidelity node degrades to `summary:high` once. */
  degradeFullFidelity: boolean;
  /** Fidelity resolved for the node being run (edge, node, graph default, `compact`). */
  fidelity: FidelityMode;
  /** Where this actor's stage folders go (a branch or child has its own, under its parent node's). */
  runDir: string;
  /** Added to the data of every event handlers of this actor emit: `branch` and `parent` (manager node). */
  tags: Record<string, string>;
  /** The newest snapshot of the run's working tree (decision 0331). */
  treeHead?: string;
  /** Each node's snapshot commit, from its latest visit that took one. */
  treeCommits?: Record<string, string>;
  /** Nodes whose latest snapshot was skipped, and why (`budget`, `too-many-files`). */
  treeSkipped?: Record<string, string>;
}

/** What snapshotting the working tree after a node visit gave (none: no snapshot was attempted). */
export interface NodeTree {
  commit?: string;
  /** Why the snapshot was skipped. */
  skipped?: string;
  /** Files over the size limit, left out. */
  omitted?: string[];
}

export interface PipelineMachineInput {
  startAt: string;
  /** The run directory stage folders are created in. */
  runDir: string;
  tags?: Record<string, string>;
  values: Record<string, unknown>;
  maxSteps: number;
  completedNodes?: readonly string[];
  nodeOutcomes?: Readonly<Record<string, StageStatus>>;
  nodeRetries?: Readonly<Record<string, number>>;
  logs?: readonly ContextLogEntry[];
  steps?: number;
  restarts?: number;
  failedNodes?: readonly string[];
  branch?: boolean;
  resumed?: boolean;
  arrivedBy?: number;
  treeHead?: string;
  treeCommits?: Readonly<Record<string, string>>;
  treeSkipped?: Readonly<Record<string, string>>;
}

export function initialContext(input: PipelineMachineInput): PipelineMachineContext {
  // Input values (a checkpoint's context, a branch's start) carry the counts as values: take them out.
  const { values, visits } = splitVisitCounts(input.values);
  return {
    values,
    visits,
    completedNodes: [...(input.completedNodes ?? [])],
    nodeOutcomes: { ...(input.nodeOutcomes ?? {}) },
    nodeRetries: { ...(input.nodeRetries ?? {}) },
    logs: [...(input.logs ?? [])],
    steps: input.steps ?? 0,
    maxSteps: input.maxSteps,
    retryPending: false,
    jumpTo: input.startAt,
    failedNodes: [...(input.failedNodes ?? [])],
    pauseRequested: false,
    restarts: input.restarts ?? 0,
    branch: input.branch ?? false,
    degradeFullFidelity: input.resumed ?? false,
    ...definedFields({ arrivedBy: input.arrivedBy }),
    fidelity: 'compact',
    runDir: input.runDir,
    tags: { ...(input.tags ?? {}) },
    ...(input.treeHead ? { treeHead: input.treeHead } : {}),
    ...(input.treeCommits ? { treeCommits: { ...input.treeCommits } } : {}),
    ...(input.treeSkipped ? { treeSkipped: { ...input.treeSkipped } } : {}),
  };
}
