/**
 * What a worker says of a run it executes, one line each (`attractor worker`, plain or `--json`): it
 * took the run (at `attempt`), released it at a gate, or the run stopped here — `finished` with the
 * status it ended (or stopped) with, or `failed` with why.
 */
export type WorkerRunEvent =
  | { event: 'took'; run_id: string; attempt: number }
  | { event: 'released'; run_id: string }
  | { event: 'finished'; run_id: string; status: string }
  | { event: 'failed'; run_id: string; reason: string };

/** The event for how a run's execution here left it: its status as this worker recorded it. */
export function stoppedEvent(
  runId: string,
  record: { status: string; failure?: { reason: string } } | undefined,
): WorkerRunEvent {
  if (record?.status === 'waiting') return { event: 'released', run_id: runId };
  if (record === undefined || record.status === 'failed')
    return { event: 'failed', run_id: runId, reason: record?.failure?.reason ?? 'unknown reason' };
  return { event: 'finished', run_id: runId, status: record.status };
}

/** The plain line of an event (`--json` prints the event itself). */
export function workerEventLine(event: WorkerRunEvent): string {
  switch (event.event) {
    case 'took':
      return `took run ${event.run_id} (attempt ${event.attempt})`;
    case 'released':
      return `released run ${event.run_id}: it waits at a gate`;
    case 'finished':
      return `finished run ${event.run_id}: ${event.status}`;
    case 'failed':
      return `failed run ${event.run_id}: ${event.reason}`;
  }
}
