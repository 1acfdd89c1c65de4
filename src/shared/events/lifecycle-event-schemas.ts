import * as z from 'zod';
import { eventData, usageTotals } from './event-data-object.js';

const outcomeStatus = z.enum(['success', 'partial_success', 'retry', 'fail', 'skipped']);
const runStatus = z.enum(['running', 'completed', 'failed', 'paused', 'cancelled']);
/** The run's newest working-tree snapshot when it stopped (decision 0331). */
const treeCommit = z.string().optional();

const runStart = {
  name: z.string(),
  goal: z.string(),
  run_id: z.string(),
  run_dir: z.string(),
  /** The resume of a failed run: where it failed and why. */
  after_failure: z.object({ node: z.string(), reason: z.string() }).strict().optional(),
};

/** Who did it (`shared/identity.ts`): absent when the caller said nobody (a library run, an older log). */
const by = z.string().optional();

/** The routing rule that chose an edge, or for a jump to a node without an edge what named it. */
export const routingStep = z.enum([
  'condition',
  'llm_choice',
  'preferred_label',
  'suggested_next',
  'weight',
  'lexical',
  'next_node',
  'retry_target',
  'fallback_retry_target',
  'goal_gate',
]);

/** The run's own life: start and end, each node visit, routing, checkpoints (docs/guides/runs.md, "Events"). */
export const lifecycleEventSchemas = {
  'pipeline.start': eventData({ ...runStart, started_by: by }),
  'pipeline.resume': eventData({
    ...runStart,
    resume_at: z.string(),
    /** A fork's first start: the run and node it was forked from. */
    forked_from: z.object({ run_id: z.string(), node: z.string() }).strict().optional(),
    /** Who asked for this execution of the run. */
    resumed_by: by,
    /** A fork's first start: who made the fork. */
    forked_by: by,
  }),
  'node.start': eventData({ attempt: z.number(), handler: z.string(), step: z.number() }),
  'node.complete': eventData({
    status: outcomeStatus,
    preferred_label: z.string().optional(),
    notes: z.string().optional(),
    failure_reason: z.string().optional(),
    /** Added by the engine for the run's own nodes (not a branch's or a child's). */
    duration_ms: z.number().optional(),
    /** Added by the engine when the visit called a model. */
    usage: usageTotals.optional(),
    /** The working tree's snapshot after the visit (decision 0331). */
    commit: z.string().optional(),
    /** Why that snapshot was skipped (`budget`, `too-many-files`). */
    tree_skipped: z.string().optional(),
    /** Files left out of it for their size. */
    tree_omitted: z.array(z.string()).optional(),
  }),
  'node.retry': eventData({ attempt: z.number(), reason: z.string(), delay_ms: z.number().optional() }),
  'edge.selected': eventData({
    from: z.string(),
    to: z.string(),
    step: routingStep,
    edge_index: z.number().optional(),
    label: z.string().optional(),
    condition: z.string().optional(),
    weight: z.number().optional(),
    loop_restart: z.literal(true).optional(),
    /** A jump to a node without an edge. */
    jump: z.literal(true).optional(),
  }),
  'node.jump': eventData({ target: z.string(), reason: z.string() }),
  'goal_gate.retry': eventData({ target: z.string() }),
  'loop.restart': eventData({ target: z.string(), restart: z.number() }),
  'checkpoint.saved': eventData({ current_node: z.string(), status: runStatus }),
  'pipeline.complete': eventData({
    duration_ms: z.number().optional(),
    artifact_count: z.number().optional(),
    commit: treeCommit,
  }),
  'pipeline.error': eventData({ error: z.string(), duration_ms: z.number().optional(), commit: treeCommit }),
  /** `reason` and `message` when something other than a person paused it (`budget`). */
  'pipeline.paused': eventData({
    resume_at: z.string(),
    reason: z.string().optional(),
    message: z.string().optional(),
    commit: treeCommit,
  }),
  'pipeline.cancelled': eventData({ resume_at: z.string(), commit: treeCommit, cancelled_by: by }),
  /** How a resume found the run's working tree (decision 0331). */
  'tree.resume': eventData({
    commit: z.string(),
    /** `kept` as it is, `restored` to the snapshot (`--restore-tree`), `materialised` into a folder without it. */
    action: z.enum(['kept', 'restored', 'materialised']),
    /** Paths that differed from the snapshot (at most ten), and how many more did. */
    changed: z.array(z.string()),
    more: z.number(),
  }),
  /** Said once: the run's files are not snapshotted (no usable git). */
  'tree.unavailable': eventData({ reason: z.string() }),
  /** A snapshot left files out or was skipped: named once, when it happens. */
  'tree.warning': eventData({ message: z.string(), omitted: z.array(z.string()).optional() }),
  'pipeline.finalize': eventData({
    status: z.enum(['completed', 'failed', 'paused', 'cancelled']),
    quality: z.enum(['clean', 'degraded', 'failed']),
    reason: z.string().optional(),
    failed_nodes: z.array(z.string()),
    recovered_nodes: z.array(z.string()),
    partial_nodes: z.array(z.string()),
    /** The node the run stopped at, and the node that failed: what `attractor attach` ends with. */
    stopped_at: z.string().optional(),
    failed_at: z.string().optional(),
    duration_ms: z.number().optional(),
    usage: usageTotals.optional(),
  }),
  /** `attractor resume` asked whether to run an interrupted `idempotent=false` node again. */
  'resume.rerun_confirmed': eventData({ idempotent: z.literal(false) }),
  'resume.rerun_declined': eventData({ idempotent: z.literal(false) }),
  /** A process group an interrupted run left running, stopped before its node runs again. */
  'process.stopped': eventData({
    pgid: z.number(),
    command: z.string(),
    processes: z.number(),
    killed: z.boolean(),
  }),
} as const;
