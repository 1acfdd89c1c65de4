import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TREE_BUNDLES_DIR, treeCarrier } from '../../src/run/carried-tree.js';
import type { RunRecordSink } from '../../src/run/mirrored-run-recorder.js';
import { gitAvailable } from '../../src/working-tree/git-available.js';
import { openRunTree, type RunTree } from '../../src/working-tree/run-tree.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A machine's copy of run `run-1`: its work folder and its run directory. */
function machine(): { work: string; runDir: string } {
  const root = tempDir('attractor-carry-');
  mkdirSync(join(root, 'work'));
  return { work: join(root, 'work'), runDir: join(root, 'run') };
}

async function open(at: { work: string; runDir: string }): Promise<RunTree> {
  const tree = await openRunTree(
    { workDir: at.work, runDir: at.runDir, runId: 'run-1' },
    await gitAvailable(),
  );
  if (!tree) throw new Error('git is missing');
  return tree;
}

/** A sink keeping what a store would: the bundles in order, and the stage files. */
function keepingSink(): {
  sink: RunRecordSink;
  bundles: { commit: string; bundle: Buffer }[];
  files: Map<string, Record<string, string>>;
} {
  const bundles: { commit: string; bundle: Buffer }[] = [];
  const files = new Map<string, Record<string, string>>();
  const sink: RunRecordSink = {
    event: () => {},
    checkpoint: () => {},
    stage: () => {},
    branch: () => {},
    branchesCleared: () => {},
    settled: async () => {},
    stageFiles: (stage, named) => files.set(stage, { ...files.get(stage), ...named }),
    treeBundle: (commit, bundle) => bundles.push({ commit, bundle }),
  };
  return { sink, bundles, files };
}

/** What a store's materialise does on the next machine: the bundles as numbered files. */
function deliver(runDir: string, bundles: readonly { bundle: Buffer }[]): void {
  mkdirSync(join(runDir, TREE_BUNDLES_DIR), { recursive: true });
  bundles.forEach(({ bundle }, i) => {
    writeFileSync(join(runDir, TREE_BUNDLES_DIR, `${String(i + 1).padStart(6, '0')}.bundle`), bundle);
  });
}

describe('treeCarrier', () => {
  it('hands each snapshot on as an incremental bundle; another machine takes the chain in and materialises the tree', async () => {
    const a = machine();
    const { sink, bundles, files } = keepingSink();
    const treeA = await open(a);
    const carrier = treeCarrier(a.runDir, sink);
    expect(carrier).toBeDefined();
    await treeA.snapshot('start');
    writeFileSync(join(a.work, 'one.txt'), 'one\n');
    const one = await treeA.snapshot('node one');
    await carrier?.carry(treeA, one.commit ?? '', one.parent, 'one');
    writeFileSync(join(a.work, 'two.txt'), 'two\n');
    const two = await treeA.snapshot('node two');
    await carrier?.carry(treeA, two.commit ?? '', two.parent, 'two');
    expect(bundles.map((b) => b.commit)).toEqual([one.commit, two.commit]);
    // Incremental: the second bundle needs the first snapshot, and holds only what came after it.
    // A bundle's header: prerequisites (`-<commit>`), then its heads, then a blank line.
    const header = (bundle: Buffer | undefined) => (bundle?.toString('latin1') ?? '').split('\n\n')[0] ?? '';
    expect(header(bundles[0]?.bundle)).not.toMatch(/^-/m);
    expect(header(bundles[1]?.bundle)).toContain(`-${one.commit}`);
    expect(header(bundles[1]?.bundle)).toContain(`${two.commit} refs/attractor/`);
    expect(bundles[1]?.bundle.length).toBeLessThan(bundles[0]?.bundle.length ?? 0);
    expect(files.get('two')?.['diff.patch']).toContain('+two');
    expect(files.get('two')?.['diff.patch']).not.toContain('one.txt');

    const b = machine();
    deliver(b.runDir, bundles);
    const treeB = await open(b);
    expect(await treeB.has(two.commit ?? '')).toBe(false);
    await treeCarrier(b.runDir, keepingSink().sink)?.bring(treeB, two.commit ?? '');
    expect(await treeB.has(two.commit ?? '')).toBe(true);
    expect(existsSync(join(b.runDir, TREE_BUNDLES_DIR))).toBe(false);
    await treeB.materialise(two.commit ?? '');
    expect(readFileSync(join(b.work, 'one.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(b.work, 'two.txt'), 'utf8')).toBe('two\n');
  });

  it('refuses a damaged bundle, and leaves no bundle folder behind', async () => {
    const b = machine();
    deliver(b.runDir, [{ bundle: Buffer.from('# v2 git bundle\nnot a bundle') }]);
    const tree = await open(b);
    const bring = treeCarrier(b.runDir, keepingSink().sink)?.bring(tree, 'a'.repeat(40));
    await expect(bring).rejects.toMatchObject({ code: 'GIT_FAILED' });
    expect(existsSync(join(b.runDir, TREE_BUNDLES_DIR))).toBe(false);
  });

  it('carries nothing for a run whose sink keeps no bundles and that names no remote', () => {
    const { sink } = keepingSink();
    const { treeBundle: _bundles, ...plain } = sink;
    expect(treeCarrier(tempDir(), plain)).toBeUndefined();
    expect(treeCarrier(tempDir(), undefined)).toBeUndefined();
  });

  it('pushes to a git remote and fetches from it on the next machine', async () => {
    const remote = join(tempDir(), 'remote.git');
    execFileSync('git', ['init', '--quiet', '--bare', remote]);
    const a = machine();
    const treeA = await open(a);
    writeFileSync(join(a.work, 'hello.txt'), 'hi\n');
    const snap = await treeA.snapshot('node write');
    await treeCarrier(a.runDir, undefined, `file://${remote}`)?.carry(
      treeA,
      snap.commit ?? '',
      snap.parent,
      'write',
    );
    const pushed = execFileSync('git', ['--git-dir', remote, 'rev-parse', 'refs/attractor/runs/run-1']);
    expect(pushed.toString().trim()).toBe(snap.commit);

    const b = machine();
    const treeB = await open(b);
    await treeCarrier(b.runDir, undefined, `file://${remote}`)?.bring(treeB, snap.commit ?? '');
    await treeB.materialise(snap.commit ?? '');
    expect(readFileSync(join(b.work, 'hello.txt'), 'utf8')).toBe('hi\n');
  });
});
