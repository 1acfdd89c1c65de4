import * as z from 'zod';
import type { PipelineNode } from '../../compiler/ir.js';
import {
  ISOLATION_MODES,
  type IsolationMode,
  MERGE_MODES,
  type MergeMode,
} from '../../compiler/parallel-isolation.js';

export const JoinPolicySchema = z.enum(['wait_all', 'first_success', 'k_of_n']);
export const ErrorPolicySchema = z.enum(['fail_fast', 'continue', 'ignore']);

export interface ParallelPolicy {
  join: z.infer<typeof JoinPolicySchema>;
  /** Successes needed: all branches for wait_all, 1 for first_success, `join_k` for k_of_n. */
  k: number;
  error: z.infer<typeof ErrorPolicySchema>;
  maxParallel: number;
  /** `worktree`: each branch works in a folder of its own, made from the fan-out's snapshot. */
  isolation: IsolationMode;
  /** How isolated branches join the parent's folder (default `all`). */
  merge: MergeMode;
}

export const DEFAULT_MAX_PARALLEL = 4;

/**
 * A parallel node's policy from its attributes (docs/semantics.md): `join_policy` (default wait_all), `join_k`
 * (default: every branch), `error_policy` (default continue), `max_parallel` (default 4), `isolation` (default none) and `merge` (default all). A bad value is
 * reported, not guessed at: the lint should have caught it, and guessing would change what runs.
 */
export function readParallelPolicy(
  node: PipelineNode,
  branchCount: number,
): { ok: true; policy: ParallelPolicy } | { ok: false; reason: string } {
  const join = JoinPolicySchema.safeParse(node.attrs.join_policy ?? 'wait_all');
  if (!join.success) return { ok: false, reason: `unknown join_policy "${node.attrs.join_policy}"` };
  const error = ErrorPolicySchema.safeParse(node.attrs.error_policy ?? 'continue');
  if (!error.success) return { ok: false, reason: `unknown error_policy "${node.attrs.error_policy}"` };
  const joinK = node.attrs.join_k ?? branchCount;
  if (!Number.isInteger(joinK) || joinK < 1)
    return { ok: false, reason: `join_k must be a positive integer` };
  const maxParallel = node.attrs.max_parallel ?? DEFAULT_MAX_PARALLEL;
  if (!Number.isInteger(maxParallel) || maxParallel < 1) {
    return { ok: false, reason: `max_parallel must be a positive integer` };
  }
  const isolation = z.enum(ISOLATION_MODES).safeParse(node.attrs.isolation ?? 'none');
  if (!isolation.success) return { ok: false, reason: `unknown isolation "${node.attrs.isolation}"` };
  const merge = z.enum(MERGE_MODES).safeParse(node.attrs.merge ?? 'all');
  if (!merge.success) return { ok: false, reason: `unknown merge "${node.attrs.merge}"` };
  const k = join.data === 'wait_all' ? branchCount : join.data === 'first_success' ? 1 : joinK;
  return {
    ok: true,
    policy: {
      join: join.data,
      k,
      error: error.data,
      maxParallel,
      isolation: isolation.data,
      merge: merge.data,
    },
  };
}
