import { describe, expect, test } from 'vitest';
import { stoppedEvent, type WorkerRunEvent, workerEventLine } from '../../src/worker/worker-run-event.js';

describe('what a worker logs of a run', () => {
  test.each([
    [{ status: 'waiting' }, { event: 'released', run_id: 'r1' }],
    [{ status: 'completed' }, { event: 'finished', run_id: 'r1', status: 'completed' }],
    [{ status: 'cancelled' }, { event: 'finished', run_id: 'r1', status: 'cancelled' }],
    [{ status: 'interrupted' }, { event: 'finished', run_id: 'r1', status: 'interrupted' }],
    [
      { status: 'failed', failure: { reason: 'tsc: 2 errors' } },
      { event: 'failed', run_id: 'r1', reason: 'tsc: 2 errors' },
    ],
    [undefined, { event: 'failed', run_id: 'r1', reason: 'unknown reason' }],
  ] as const)('a run left %o is %o', (record, expected) => {
    expect(stoppedEvent('r1', record)).toEqual(expected);
  });

  test.each([
    [{ event: 'took', run_id: 'r1', attempt: 2 }, 'took run r1 (attempt 2)'],
    [{ event: 'released', run_id: 'r1' }, 'released run r1: it waits at a gate'],
    [{ event: 'finished', run_id: 'r1', status: 'completed' }, 'finished run r1: completed'],
    [{ event: 'failed', run_id: 'r1', reason: 'no luck' }, 'failed run r1: no luck'],
  ] satisfies Array<[WorkerRunEvent, string]>)('%o is logged as %j', (event, line) => {
    expect(workerEventLine(event)).toBe(line);
  });
});
