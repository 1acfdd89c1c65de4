import { describe, expect, it } from 'vitest';
import { deriveRunStatus, type RunDirectoryFacts } from '../../src/run/run-status.js';

const cases: Array<[string, RunDirectoryFacts, string]> = [
  [
    'completed, whatever the lock says',
    { checkpointStatus: 'completed', lockHeld: true, openQuestion: false },
    'completed',
  ],
  ['failed', { checkpointStatus: 'failed', lockHeld: false, openQuestion: false }, 'failed'],
  ['cancelled', { checkpointStatus: 'cancelled', lockHeld: false, openQuestion: true }, 'cancelled'],
  ['running: a live lock', { checkpointStatus: 'running', lockHeld: true, openQuestion: false }, 'running'],
  [
    'waiting: a live lock and an open question',
    { checkpointStatus: 'running', lockHeld: true, openQuestion: true },
    'waiting',
  ],
  ['running before its first checkpoint', { lockHeld: true, openQuestion: false }, 'running'],
  [
    'interrupted: running, but nobody holds the lock',
    { checkpointStatus: 'running', lockHeld: false, openQuestion: false },
    'interrupted',
  ],
  [
    'interrupted: a question left open by a dead run',
    { checkpointStatus: 'running', lockHeld: false, openQuestion: true },
    'interrupted',
  ],
  ['interrupted before its first checkpoint', { lockHeld: false, openQuestion: false }, 'interrupted'],
  ['paused', { checkpointStatus: 'paused', lockHeld: false, openQuestion: false }, 'paused'],
  [
    'running again: a resume of a paused run holds the lock',
    { checkpointStatus: 'paused', lockHeld: true, openQuestion: false },
    'running',
  ],
];

describe('deriveRunStatus', () => {
  it.each(cases)('%s', (_name, facts, expected) => {
    expect(deriveRunStatus(facts)).toBe(expected);
  });
});
