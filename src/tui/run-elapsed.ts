import type { RunState } from './run-state.js';

/**
 * How long the run has been at work: its earlier executions (a resumed run's) and the current one, to
 * its end or to `now` while it goes on. The time it spent stopped between them does not count.
 */
export function runElapsedMs(
  state: Pick<RunState, 'startedAt' | 'finishedAt' | 'activeMs'>,
  now: number,
): number {
  const current =
    state.startedAt === undefined ? 0 : Math.max(0, (state.finishedAt ?? now) - state.startedAt);
  return (state.activeMs ?? 0) + current;
}
