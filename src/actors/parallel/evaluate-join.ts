import type { StageStatus } from '../../compiler/outcome.js';
import type { ParallelPolicy } from './parallel-policy.js';

/** Branch counts so far. Cancelled branches count in none of succeeded, failed or pending. */
export interface JoinTally {
  total: number;
  /** SUCCESS or PARTIAL_SUCCESS. */
  succeeded: number;
  /** FAIL, or RETRY left over after the branch's retries. */
  failed: number;
  /** Not finished yet, started or not. */
  pending: number;
}

export type JoinVerdict = { settled: false } | { settled: true; status: StageStatus; reason: string };

/**
 * Decide a parallel node's outcome from the branches finished so far (docs/semantics.md S8). Called after
 * every branch; once settled while branches are still pending, the handler cancels them.
 *
 * | join_policy   | error_policy | settles early when          | all finished: outcome                                    |
 * |---------------|--------------|-----------------------------|----------------------------------------------------------|
 * | any           | fail_fast    | a branch fails → FAIL       | (as below)                                               |
 * | wait_all      | continue     | never                       | no failure → SUCCESS; none succeeded → FAIL; else PARTIAL_SUCCESS |
 * | wait_all      | ignore       | never                       | no failure → SUCCESS; none succeeded → FAIL; else SUCCESS |
 * | wait_all      | fail_fast    | (first row)                 | SUCCESS                                                  |
 * | first_success | any          | one succeeds → SUCCESS      | none succeeded → FAIL                                    |
 * | k_of_n        | any          | k succeed → SUCCESS         | fewer than k succeeded → FAIL                            |
 *
 * `ignore` only forgives failures that sit next to successes: with nothing succeeded there is nothing to
 * go on with. SKIPPED branches count as neither success nor failure.
 */
export function evaluateJoin(
  policy: Pick<ParallelPolicy, 'join' | 'k' | 'error'>,
  tally: JoinTally,
): JoinVerdict {
  const { total, succeeded, failed, pending } = tally;
  if (policy.error === 'fail_fast' && failed > 0) {
    return { settled: true, status: 'fail', reason: `${failed} of ${total} branches failed (fail_fast)` };
  }
  if (policy.join !== 'wait_all' && succeeded >= policy.k) {
    return { settled: true, status: 'success', reason: `${succeeded} of ${total} branches succeeded` };
  }
  if (pending > 0) return { settled: false };
  if (policy.join !== 'wait_all') {
    return {
      settled: true,
      status: 'fail',
      reason: `${succeeded} of ${total} branches succeeded, ${policy.k} needed`,
    };
  }
  if (failed === 0) return { settled: true, status: 'success', reason: `no branch failed` };
  if (succeeded === 0) return { settled: true, status: 'fail', reason: `every branch failed` };
  return {
    settled: true,
    status: policy.error === 'ignore' ? 'success' : 'partial_success',
    reason: `${failed} of ${total} branches failed`,
  };
}
