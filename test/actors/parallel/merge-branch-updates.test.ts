import { describe, expect, it } from 'vitest';
import { mergeBranchUpdates } from '../../../src/actors/parallel/merge-branch-updates.js';

describe('mergeBranchUpdates', () => {
  it('namespaces every update under its branch id, so equal keys do not collide', () => {
    expect(
      mergeBranchUpdates([
        { branchId: 'a', updates: { draft: 'A', 'review.score': 3 } },
        { branchId: 'b', updates: { draft: 'B' } },
        { branchId: 'c', updates: {} },
      ]),
    ).toEqual({ 'a.draft': 'A', 'a.review.score': 3, 'b.draft': 'B' });
  });
});
