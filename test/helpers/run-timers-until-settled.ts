import { setTimeout as realSetTimeout } from 'node:timers/promises';
import { vi } from 'vitest';

/**
 * Fake timers for a whole run: a run writes its record off the event loop (real I/O, which fake timers
 * cannot advance), so the timers a node arms after a write appear only once it is done. Run the fake
 * timers, let real I/O answer, again, until `pending` settles.
 */
export async function runTimersUntilSettled<T>(pending: Promise<T>): Promise<T> {
  let settled = false;
  const watched = pending.finally(() => {
    settled = true;
  });
  while (!settled) {
    await vi.runAllTimersAsync();
    await realSetTimeout(2);
  }
  return watched;
}
