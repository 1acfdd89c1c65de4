import type { PipelineGraph } from '../compiler/ir.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { initialRunState, reduceRunState } from './reduce-run-state.js';
import type { RunState } from './run-state.js';

/**
 * Holds the reduced state of one run and tells subscribers it changed. Reducing is cheap and happens
 * on every event; rendering is what gets throttled (use-run-state.ts), so the final summary and a
 * late subscriber always see every event.
 */
export interface RunStore {
  push(event: PipelineEvent): void;
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
  let state = initialRunState(graph);
  const listeners = new Set<(urgent: boolean) => void>();
  let closing = false;
  return {
    push(event) {
      const next = reduceRunState(graph, state, event);
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener(false);
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
