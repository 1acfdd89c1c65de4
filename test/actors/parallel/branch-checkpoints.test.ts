import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BranchCheckpoints } from '../../../src/actors/parallel/branch-checkpoints.js';
import { WriteLane } from '../../../src/shared/write-lane.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const stageDir = () => {
  const stage = mkdtempSync(join(tmpdir(), 'attractor-branches-'));
  dirs.push(stage);
  return stage;
};

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
  it('keeps finished branches until the visit completes, then removes them', async () => {
    const stage = stageDir();
    const store = new BranchCheckpoints(stage, new WriteLane({ durable: false }));
    store.clear(); // nothing finished yet: nothing to remove
    await store.save(checkpoint('a'));
    await store.save(checkpoint('b/c'));
    // One file, one line per finished branch.
    expect(readdirSync(stage)).toEqual(['branch-results.jsonl']);
    expect([...store.load().keys()].sort()).toEqual(['a', 'b/c']);
    store.close();
    // A later attempt of the same visit (a resume) reads them with a store of its own.
    expect([...new BranchCheckpoints(stage, new WriteLane()).load().keys()].sort()).toEqual(['a', 'b/c']);
    store.clear();
    expect(readdirSync(stage)).toEqual([]);
    expect(store.load().size).toBe(0);
  });

  it('prepare() creates the file before any branch finishes; a failure there is left to save()', async () => {
    const stage = stageDir();
    const lane = new WriteLane({ durable: false });
    const store = new BranchCheckpoints(stage, lane);
    store.prepare();
    await lane.settled();
    expect(readFileSync(join(stage, 'branch-results.jsonl'), 'utf8')).toBe('');
    // An empty file (a crash before any branch finished) restores nothing.
    expect(new BranchCheckpoints(stage, new WriteLane()).load().size).toBe(0);
    await store.save(checkpoint('a'));
    expect([...store.load().keys()]).toEqual(['a']);
    store.clear();
    expect(readdirSync(stage)).toEqual([]);

    // A folder where the file should be: prepare() does not throw, save() does.
    const blocked = stageDir();
    mkdirSync(join(blocked, 'branch-results.jsonl'));
    const failing = new BranchCheckpoints(blocked, new WriteLane({ durable: false }));
    expect(() => failing.prepare()).not.toThrow();
    await expect(failing.save(checkpoint('a'))).rejects.toThrow(/EISDIR/);
  });

  it('skips a line a crash tore, and the next record after it is a line of its own', async () => {
    const stage = stageDir();
    const first = new BranchCheckpoints(stage, new WriteLane({ durable: false }));
    await first.save(checkpoint('a'));
    first.close();
    // The process died in the middle of writing b's line.
    appendFileSync(join(stage, 'branch-results.jsonl'), JSON.stringify(checkpoint('b')).slice(0, 40));
    const resumed = new BranchCheckpoints(stage, new WriteLane());
    expect([...resumed.load().keys()]).toEqual(['a']);
    await resumed.save(checkpoint('b'));
    resumed.close();
    expect([...new BranchCheckpoints(stage, new WriteLane()).load().keys()].sort()).toEqual(['a', 'b']);
  });

  it('reads and removes the per-branch files a run interrupted by an earlier version left', async () => {
    const stage = stageDir();
    const legacy = join(stage, 'branch-results');
    mkdirSync(legacy);
    writeFileSync(join(legacy, 'a.json'), `${JSON.stringify(checkpoint('a'))}\n`);
    const store = new BranchCheckpoints(stage, new WriteLane({ durable: false }));
    expect([...store.load().keys()]).toEqual(['a']);
    await store.save(checkpoint('b'));
    expect([...store.load().keys()].sort()).toEqual(['a', 'b']);
    store.clear();
    expect(existsSync(legacy)).toBe(false);
    expect(readdirSync(stage)).toEqual([]);
  });
});
