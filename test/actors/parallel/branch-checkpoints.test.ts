import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BranchCheckpoints } from '../../../src/actors/parallel/branch-checkpoints.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const checkpoint = (branchId: string) => ({
  record: { branch_id: branchId, status: 'success' as const },
  result: {
    branchId,
    startNodeId: branchId,
    outcome: { status: 'success' as const },
    context: {},
    updates: { [`seen.${branchId}`]: true },
    completedNodes: [branchId],
  },
});

describe('BranchCheckpoints', () => {
  it('keeps finished branches until the visit completes, then removes the folder', () => {
    const stage = mkdtempSync(join(tmpdir(), 'attractor-branches-'));
    dirs.push(stage);
    const store = new BranchCheckpoints(stage, { durable: false });
    store.clear(); // nothing finished yet: nothing to remove
    store.save('a', checkpoint('a'));
    store.save('b/c', checkpoint('b/c'));
    expect([...store.load().keys()].sort()).toEqual(['a', 'b/c']);
    store.clear();
    expect(existsSync(join(stage, 'branch-results'))).toBe(false);
    expect(store.load().size).toBe(0);
  });
});
