import { describe, expect, it } from 'vitest';
import { readParallelPolicy } from '../../../src/actors/parallel/parallel-policy.js';
import type { NodeAttrs } from '../../../src/compiler/ir.js';
import { makeNode } from '../helpers/graph-builders.js';

describe('readParallelPolicy', () => {
  it.each<[NodeAttrs, object]>([
    [{}, { join: 'wait_all', k: 3, error: 'continue', maxParallel: 4 }],
    [{ join_policy: 'first_success' }, { join: 'first_success', k: 1 }],
    [
      { join_policy: 'k_of_n', join_k: 2 },
      { join: 'k_of_n', k: 2 },
    ],
    [{ join_policy: 'k_of_n' }, { join: 'k_of_n', k: 3 }],
    [
      { error_policy: 'fail_fast', max_parallel: 2 },
      { error: 'fail_fast', maxParallel: 2 },
    ],
  ])('%j → %j', (attrs, expected) => {
    const read = readParallelPolicy(makeNode('p', attrs), 3);
    expect(read.ok && read.policy).toMatchObject(expected);
  });

  it.each<[NodeAttrs, string]>([
    [{ join_policy: 'quorum' }, 'unknown join_policy "quorum"'],
    [{ error_policy: 'explode' }, 'unknown error_policy "explode"'],
    [{ join_policy: 'k_of_n', join_k: 0 }, 'join_k must be a positive integer'],
    [{ max_parallel: 0 }, 'max_parallel must be a positive integer'],
    [{ max_parallel: 1.5 }, 'max_parallel must be a positive integer'],
  ])('%j is reported: %s', (attrs, reason) => {
    expect(readParallelPolicy(makeNode('p', attrs), 3)).toEqual({ ok: false, reason });
  });
});
