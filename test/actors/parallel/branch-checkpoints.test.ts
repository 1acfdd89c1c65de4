import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BranchCheckpoints,
  branchCheckpointsCleared,
} from '../../../src/actors/parallel/branch-checkpoints.js';

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

  it('clears in one step: the folder is set aside at once (no later visit can load it), then removed', async () => {
    const stage = mkdtempSync(join(tmpdir(), 'attractor-branches-'));
    dirs.push(stage);
    const store = new BranchCheckpoints(stage, { durable: false });
    store.save('a', checkpoint('a'));
    store.clear();
    // Gone from where `load` looks the moment clear returns; a new visit saving again is not disturbed.
    expect(existsSync(join(stage, 'branch-results'))).toBe(false);
    expect(store.load().size).toBe(0);
    store.save('b', checkpoint('b'));
    store.clear(); // the first removal may still run: this one is done in place
    await branchCheckpointsCleared();
    expect(readdirSync(stage)).toEqual([]);
  });

  it('a folder a crashed process left set aside is removed by the next visit, never loaded', () => {
    const stage = mkdtempSync(join(tmpdir(), 'attractor-branches-'));
    dirs.push(stage);
    const aside = join(stage, 'branch-results.removing');
    mkdirSync(aside);
    writeFileSync(join(aside, 'a.json'), `${JSON.stringify(checkpoint('a'))}\n`);
    const store = new BranchCheckpoints(stage, { durable: false });
    expect(store.load().size).toBe(0);
    expect(existsSync(aside)).toBe(false);
  });
});
