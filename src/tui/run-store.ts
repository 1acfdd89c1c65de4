import type { InspectionEvent } from 'xstate';
import type { PipelineGraph } from '../compiler/ir.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { printableJson } from '../shared/printable-text.js';
import { actorStatusOf, applyActorStatus, nodeOfStateKey } from './actor-status.js';
import { initialRunState, reduceRunState } from './reduce-run-state.js';
import type { RunState } from './run-state.js';

/**
 * Holds the reduced state of one run and tells subscribers it changed. Reducing is cheap and happens
 * on every event; rendering is what gets throttled (use-run-state.ts), so the final summary and a
 * late subscriber always see every event.
 */
export interface RunStore {
  push(event: PipelineEvent): void;
  /**
   * Follows the live pipeline actor (its actor system's inspection events) for what it knows before its
   * events say it: the node running, a pause asked for, a stop (actor-status.ts).
   */
  observe(event: InspectionEvent): void;
  getState(): RunState;
  /** `urgent` asks for the change to be shown now, unthrottled (the TUI is about to close). */
  subscribe(listener: (urgent: boolean) => void): () => void;
  /**
   * The run is over and the TUI closes: subscribers show the final state at once instead of at their
   * next tick, and the app leaves only its transcript (the plain summary replaces the live panes).
   */
  settle(): void;
  /** True once settled. */
  closing(): boolean;
}

export function createRunStore(graph: PipelineGraph): RunStore {
  // What a pipeline or its models supplied (names, goal, labels, notes, agent text) is shown, never
  // obeyed by the terminal: control characters are escaped on the way in.
  let state = printableJson(initialRunState(graph));
  const listeners = new Set<(urgent: boolean) => void>();
  let closing = false;
  const nodeOf = nodeOfStateKey(graph);
  const update = (next: RunState) => {
    if (next === state) return;
    state = next;
    for (const listener of listeners) listener(false);
  };
  return {
    push(event) {
      update(reduceRunState(graph, state, printableJson(event)));
    },
    observe(event) {
      const status = actorStatusOf(event, nodeOf);
      if (status) update(applyActorStatus(state, status, Date.now()));
    },
    settle() {
      closing = true;
      for (const listener of listeners) listener(true);
    },
    getState: () => state,
    closing: () => closing,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
