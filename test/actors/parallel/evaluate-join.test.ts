import { describe, expect, it } from 'vitest';
import { evaluateJoin, type JoinTally } from '../../../src/actors/parallel/evaluate-join.js';
import type { ParallelPolicy } from '../../../src/actors/parallel/parallel-policy.js';

const policy = (join: ParallelPolicy['join'], error: ParallelPolicy['error'], k = 3): ParallelPolicy => ({
  join,
  error,
  k,
  maxParallel: 4,
  isolation: 'none',
  merge: 'all',
});
const tally = (succeeded: number, failed: number, pending: number, total = 3): JoinTally => ({
  total,
  succeeded,
  failed,
  pending,
});

describe('evaluateJoin (the decision table in its TSDoc)', () => {
  it.each<[string, ParallelPolicy, JoinTally, string | undefined]>([
    // fail_fast settles on the first failure, whatever the join policy
    [
      'wait_all/fail_fast: a failure with others pending',
      policy('wait_all', 'fail_fast'),
      tally(1, 1, 1),
      'fail',
    ],
    [
      'first_success/fail_fast: failure first',
      policy('first_success', 'fail_fast', 1),
      tally(0, 1, 2),
      'fail',
    ],
    ['k_of_n/fail_fast: failure', policy('k_of_n', 'fail_fast', 2), tally(1, 1, 1), 'fail'],
    ['wait_all/fail_fast: all succeeded', policy('wait_all', 'fail_fast'), tally(3, 0, 0), 'success'],
    // wait_all never settles early
    ['wait_all/continue: pending', policy('wait_all', 'continue'), tally(1, 1, 1), undefined],
    ['wait_all/continue: all succeeded', policy('wait_all', 'continue'), tally(3, 0, 0), 'success'],
    ['wait_all/continue: some failed', policy('wait_all', 'continue'), tally(2, 1, 0), 'partial_success'],
    ['wait_all/continue: all failed', policy('wait_all', 'continue'), tally(0, 3, 0), 'fail'],
    ['wait_all/ignore: some failed', policy('wait_all', 'ignore'), tally(1, 2, 0), 'success'],
    ['wait_all/ignore: all failed', policy('wait_all', 'ignore'), tally(0, 3, 0), 'fail'],
    ['wait_all/continue: all skipped', policy('wait_all', 'continue'), tally(0, 0, 0), 'success'],
    // first_success
    [
      'first_success/continue: one succeeded, others pending',
      policy('first_success', 'continue', 1),
      tally(1, 0, 2),
      'success',
    ],
    [
      'first_success/continue: failures, others pending',
      policy('first_success', 'continue', 1),
      tally(0, 2, 1),
      undefined,
    ],
    [
      'first_success/continue: none succeeded',
      policy('first_success', 'continue', 1),
      tally(0, 3, 0),
      'fail',
    ],
    ['first_success/ignore: none succeeded', policy('first_success', 'ignore', 1), tally(0, 3, 0), 'fail'],
    // k_of_n
    ['k_of_n/continue: k reached early', policy('k_of_n', 'continue', 2), tally(2, 0, 1), 'success'],
    [
      'k_of_n/continue: k reached despite a failure',
      policy('k_of_n', 'continue', 2),
      tally(2, 1, 0),
      'success',
    ],
    ['k_of_n/continue: not yet', policy('k_of_n', 'continue', 2), tally(1, 1, 1), undefined],
    ['k_of_n/continue: fewer than k at the end', policy('k_of_n', 'continue', 2), tally(1, 2, 0), 'fail'],
    ['k_of_n/ignore: fewer than k at the end', policy('k_of_n', 'ignore', 2), tally(1, 2, 0), 'fail'],
    ['k_of_n: k larger than the branch count', policy('k_of_n', 'continue', 5), tally(3, 0, 0), 'fail'],
  ])('%s → %s', (_name, p, t, expected) => {
    const verdict = evaluateJoin(p, t);
    if (expected === undefined) expect(verdict).toEqual({ settled: false });
    else expect(verdict).toMatchObject({ settled: true, status: expected });
  });

  it('explains itself', () => {
    expect(evaluateJoin(policy('k_of_n', 'continue', 2), tally(1, 2, 0))).toEqual({
      settled: true,
      status: 'fail',
      reason: '1 of 3 branches succeeded, 2 needed',
    });
  });
});
