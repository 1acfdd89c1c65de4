import { describe, expect, it } from 'vitest';
import type { ParallelResult } from '../../../src/actors/parallel/parallel-result.js';
import { rankBranchResults } from '../../../src/actors/parallel/rank-branch-results.js';

const r = (branch_id: string, status: ParallelResult['status'], score?: number): ParallelResult => ({
  branch_id,
  status,
  ...(score === undefined ? {} : { score }),
});

describe('rankBranchResults', () => {
  it.each<[string, ParallelResult[], string[]]>([
    [
      'status order SUCCESS > PARTIAL > RETRY > FAIL > SKIPPED',
      [r('e', 'skipped'), r('d', 'fail'), r('c', 'retry'), r('b', 'partial_success'), r('a', 'success')],
      ['a', 'b', 'c', 'd', 'e'],
    ],
    ['status beats score', [r('a', 'partial_success', 10), r('b', 'success', 1)], ['b', 'a']],
    ['then higher score', [r('a', 'success', 0.2), r('b', 'success', 0.9)], ['b', 'a']],
    ['a score beats no score', [r('a', 'success'), r('b', 'success', -1)], ['b', 'a']],
    ['then id', [r('b', 'success', 1), r('a', 'success', 1), r('c', 'success')], ['a', 'b', 'c']],
  ])('%s', (_name, results, order) => {
    expect(rankBranchResults(results).map((x) => x.branch_id)).toEqual(order);
  });

  it('does not reorder its input', () => {
    const input = [r('b', 'fail'), r('a', 'success')];
    rankBranchResults(input);
    expect(input.map((x) => x.branch_id)).toEqual(['b', 'a']);
  });
});
