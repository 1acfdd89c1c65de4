import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Checkpoint, CheckpointSchema } from './checkpoint.js';
import { CHECKPOINT_HISTORY_FILE, eachJournalState } from './checkpoint-journal.js';

/** What a run's checkpoint history says about the times it entered its nodes. */
export interface RunEntries {
  /** The checkpoint as the run entered `node` the last time; undefined when it never did. */
  entry?: Checkpoint;
  /** Every node the run entered, in the order it first did. */
  reached: string[];
}

/**
 * The checkpoint taken as the run entered `node` (decision 0010): the first checkpoint naming it as the
 * node to run next, after one naming another node (or a stopped run) — the context as the node found it,
 * before its own attempts and retries. Of several visits, the last. Read from `checkpoint-history.jsonl`;
 * a run without one (started by an older version) has no entries.
 */
export function checkpointAtEntry(runDir: string, node: string): RunEntries {
  let text: string;
  try {
    text = readFileSync(join(runDir, CHECKPOINT_HISTORY_FILE), 'utf8');
  } catch {
    return { reached: [] };
  }
  const reached: string[] = [];
  let entry: Record<string, unknown> | undefined;
  let previous: { node: unknown; status: unknown } | undefined;
  eachJournalState(text, (state) => {
    const current = state['current_node'];
    const running = state['status'] === 'running';
    const entered =
      running && (previous === undefined || previous.node !== current || previous.status !== 'running');
    if (entered && typeof current === 'string') {
      if (!reached.includes(current)) reached.push(current);
      // A copy: the fold goes on changing this object.
      if (current === node) entry = structuredClone(state);
    }
    previous = { node: current, status: state['status'] };
  });
  const parsed = entry === undefined ? undefined : CheckpointSchema.safeParse(entry);
  return { reached, ...(parsed?.success ? { entry: parsed.data } : {}) };
}

/** The context keys a run starts with (`pipeline-input.ts`): what its start node found. */
const isStartingKey = (key: string): boolean =>
  ['pipeline.name', 'pipeline.goal', 'graph.goal', 'goal'].includes(key) || key.startsWith('vars.');

/**
 * The state as the run entered its start node `start`, which no checkpoint records (the first is taken
 * after it): the first checkpoint with nothing done yet and only the context every run starts with.
 */
export function checkpointAtStart(runDir: string, start: string): RunEntries {
  let text: string;
  try {
    text = readFileSync(join(runDir, CHECKPOINT_HISTORY_FILE), 'utf8');
  } catch {
    return { reached: [] };
  }
  let first: Record<string, unknown> | undefined;
  eachJournalState(text, (state) => {
    first ??= structuredClone(state);
  });
  const parsed = first === undefined ? undefined : CheckpointSchema.safeParse(first);
  if (!parsed?.success) return { reached: [] };
  const { arrived_by: _edge, usage: _usage, failure: _failure, ...kept } = parsed.data;
  const context = Object.fromEntries(Object.entries(kept.context).filter(([key]) => isStartingKey(key)));
  const entry: Checkpoint = {
    ...kept,
    current_node: start,
    completed_nodes: [],
    node_retries: {},
    node_outcomes: {},
    failed_nodes: [],
    logs: [],
    steps: 0,
    restarts: 0,
    context,
  };
  return { reached: [start], entry };
}
