import type { StageStatus } from '../../compiler/outcome.js';
import type { ParallelResult } from './parallel-result.js';

const STATUS_RANK: Record<StageStatus, number> = {
  success: 0,
  partial_success: 1,
  retry: 2,
  fail: 3,
  skipped: 4,
};

/**
 * Fan-in order: SUCCESS > PARTIAL_SUCCESS > RETRY > FAIL > SKIPPED, then higher score
 * (a missing score ranks below any score), then branch id. Returns a new array, best first.
 */
export function rankBranchResults(results: readonly ParallelResult[]): ParallelResult[] {
  return [...results].sort(
    (a, b) =>
      STATUS_RANK[a.status] - STATUS_RANK[b.status] ||
      (b.score ?? Number.NEGATIVE_INFINITY) - (a.score ?? Number.NEGATIVE_INFINITY) ||
      (a.branch_id < b.branch_id ? -1 : a.branch_id > b.branch_id ? 1 : 0),
  );
}
