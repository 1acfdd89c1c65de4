import { describe, expect, it } from 'vitest';
import { listedStatus } from '../../src/server/listed-status.js';
import type { RunStatus } from '../../src/shared/run-view-json.js';

describe('listedStatus: a running run at an open gate is waiting for a person', () => {
  const cases: [RunStatus, number, string][] = [
    ['running', 0, 'running'],
    ['running', 1, 'waiting'],
    ['running', 2, 'waiting'],
    // An interrupted run keeps its question (answerable ahead of resume) but is interrupted first.
    ['interrupted', 1, 'interrupted'],
    ['paused', 1, 'paused'],
    ['queued', 0, 'queued'],
    ['completed', 0, 'completed'],
    ['failed', 0, 'failed'],
    ['cancelled', 0, 'cancelled'],
  ];
  it.each(cases)('%s with %i open question(s) → %s', (status, open, expected) => {
    expect(listedStatus(status, open)).toBe(expected);
  });
});
