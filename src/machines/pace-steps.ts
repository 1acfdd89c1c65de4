import type { InvocationRuntime } from './invocation-runtime.js';

/** Handler invocations between two yields to the event loop. */
const STEPS_PER_YIELD = 64;

/**
 * Called at every handler invocation. Steps of no-op handlers chain through microtasks only: every
 * `STEPS_PER_YIELD` steps they let signals, timers and the disk in, and they wait until the run's
 * records from the yield before this one are written. The recorder writes behind the machine (off the
 * event loop); without that wait a loop of routing nodes outruns it and holds every step's lines in
 * memory until the run ends. The records of one interval are written while the next runs, so the wait
 * costs nothing while the disk keeps up. A failed write is not this wait's to report: the recorder
 * stops the run with it.
 */
export async function paceSteps(
  runtime: Pick<InvocationRuntime, 'steps' | 'recordedAtLastYield' | 'services'>,
): Promise<void> {
  if (++runtime.steps % STEPS_PER_YIELD !== 0) return;
  await new Promise((resolve) => setImmediate(resolve));
  const earlier = runtime.recordedAtLastYield;
  runtime.recordedAtLastYield = runtime.services.recorded?.().catch(() => {});
  await earlier;
}
