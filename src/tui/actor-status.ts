import type { InspectionEvent } from 'xstate';
import type { PipelineGraph } from '../compiler/ir.js';
import { CONTROL_STATES, stateKey } from '../compiler/lower/state-keys.js';
import { definedFields } from '../shared/defined-fields.js';
import type { RunState } from './run-state.js';

/**
 * What the pipeline's root actor knows before its events say it: the node state it is in, a pause that
 * was asked for (by the TUI's Ctrl-C, a signal, or any caller of `run.pause()`; no event says so until
 * the run has paused), and a stop. Read from the actor system's inspection events, for a run this
 * process executes; a run in another process (`attach`) has only its event log.
 */
export interface ActorStatus {
  /** The node whose handler runs now. */
  node?: string;
  pauseRequested: boolean;
  stopped?: 'paused' | 'cancelled';
}

const STOPPED: Record<string, ActorStatus['stopped']> = {
  [CONTROL_STATES.paused]: 'paused',
  [CONTROL_STATES.cancelled]: 'cancelled',
};

/** Maps the machine's state keys back to node ids (keys escape characters XState reads as paths). */
export function nodeOfStateKey(graph: PipelineGraph): (key: string) => string | undefined {
  const byKey = new Map(graph.nodes.map((node) => [stateKey(node.id), node.id]));
  return (key) => byKey.get(key);
}

/**
 * The root actor's status from one inspection event, or undefined when the event is not a snapshot of
 * the root (child actors — handlers, parallel branches — have their own events in the stream).
 */
export function actorStatusOf(
  event: InspectionEvent,
  nodeOf: (key: string) => string | undefined,
): ActorStatus | undefined {
  if (event.type !== '@xstate.snapshot' || event.actorRef.sessionId !== event.rootId) return undefined;
  const snapshot = event.snapshot as { value?: unknown; status?: unknown; context?: unknown };
  const context = (snapshot.context ?? {}) as { pauseRequested?: unknown };
  const value = snapshot.value;
  const key =
    typeof value === 'string'
      ? value
      : value && typeof value === 'object'
        ? Object.keys(value)[0]
        : undefined;
  // A node state is enter → run → route (or backoff between attempts): only `run` is the node running.
  const running =
    key !== undefined && typeof value === 'object' && (value as Record<string, unknown>)[key] === 'run';
  const node = running ? nodeOf(key) : undefined;
  const stopped = snapshot.status === 'done' && key !== undefined ? STOPPED[key] : undefined;
  return {
    ...(node ? { node } : {}),
    pauseRequested: context.pauseRequested === true,
    ...definedFields({ stopped }),
  };
}

const LIVE = new Set<RunState['phase']>(['starting', 'running', 'waiting']);

/**
 * The state with what the actor knows folded in; the events that follow (node.start, pipeline.paused)
 * fill in the rest. Pure: returns the same state when nothing changes.
 */
export function applyActorStatus(state: RunState, status: ActorStatus, now: number): RunState {
  let next = state;
  if (status.stopped && (LIVE.has(state.phase) || state.phase === 'pausing')) {
    next = { ...next, phase: status.stopped };
  } else if (status.pauseRequested && LIVE.has(state.phase) && state.phase !== 'starting') {
    next = { ...next, phase: 'pausing' };
  }
  const id = status.node;
  const node = id === undefined ? undefined : next.nodes[id];
  if (id !== undefined && node && next.current !== id && node.status !== 'running' && !status.stopped) {
    next = {
      ...next,
      current: id,
      nodes: { ...next.nodes, [id]: { ...node, status: 'running', startedAt: now } },
    };
  }
  return next;
}
