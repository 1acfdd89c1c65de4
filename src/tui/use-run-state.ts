import { useEffect, useState } from 'react';
import type { RunState } from './run-state.js';
import type { RunStore } from './run-store.js';

/** At most this many frames per second reach the terminal (Ink's `maxFps`). */
export const MAX_FPS = 30;

/**
 * State re-reads per second: with the 10/s spinner tick this keeps the whole app at ≤ 30 renders a
 * second (measured by bench/tui-stream.mjs).
 */
export const STATE_FPS = 20;

/**
 * The store's state, re-read at most STATE_FPS times a second: a burst of 2,000 text deltas a second
 * becomes 20 renders, each showing everything that arrived since the last.
 */
export function useRunState(store: RunStore, fps = STATE_FPS): RunState {
  const [state, setState] = useState(store.getState);
  useEffect(() => {
    let timer: NodeJS.Timeout | undefined;
    let last = 0;
    const interval = 1000 / fps;
    const flush = () => {
      timer = undefined;
      last = Date.now();
      setState(store.getState());
    };
    const unsubscribe = store.subscribe((urgent) => {
      if (urgent) {
        clearTimeout(timer);
        flush();
        return;
      }
      if (timer) return;
      timer = setTimeout(flush, Math.max(0, last + interval - Date.now()));
    });
    setState(store.getState());
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [store, fps]);
  return state;
}
