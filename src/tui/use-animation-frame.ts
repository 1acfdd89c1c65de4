import { useEffect, useReducer } from 'react';

/**
 * The animation frame (spinners) for a `ms`-long frame, read from the clock when the app renders. A
 * render of its own is asked for only when nothing else rendered for `ms`: while text streams in (up
 * to 20 state renders a second, use-run-state.ts) the spinner moves with those renders instead of
 * adding ten more a second, and each of Ink's frames redraws the whole screen. Idle, it renders every
 * `ms`, and the frame always moves on between two renders at least `ms` apart.
 */
export function useAnimationFrame(ms: number, active: boolean, clock: () => number = Date.now): number {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  // No dependency list: every commit restarts the wait, so the timer fires only after `ms` of quiet.
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(rerender, ms);
    return () => clearTimeout(timer);
  });
  return Math.floor(clock() / ms);
}
