import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { branchRef, openBranchTree } from '../../src/working-tree/branch-tree.js';
import { gitAvailable } from '../../src/working-tree/git-available.js';
import { mergeSnapshots } from '../../src/working-tree/merge-snapshots.js';
import { openRunTree, type RunTree } from '../../src/working-tree/run-tree.js';
import { tempDir } from '../helpers/temp-dir.js';

const write = (dir: string, path: string, text: string): void => {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
};

const LINES = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'].join('\n');

/** A run's tree over a folder holding `lines.txt` and its first snapshot (the fan-out's). */
async function fanOut(): Promise<{ tree: RunTree; base: string; root: string }> {
  const root = tempDir('attractor-merge-');
  const work = join(root, 'work');
  write(work, 'lines.txt', `${LINES}\n`);
  const tree = await openRunTree(
    { workDir: work, runDir: join(root, 'run'), runId: 'r' },
    await gitAvailable(),
  );
  if (!tree) throw new Error('git is missing');
  const base = (await tree.snapshot('fan-out')).commit;
  if (!base) throw new Error('no snapshot');
  return { tree, base, root };
}

/** A branch made from `base` that applies `edit` to its folder; its snapshot. */
async function branch(
  setup: { tree: RunTree; base: string; root: string },
  id: string,
  edit: (dir: string) => void,
): Promise<{ id: string; commit: string }> {
  const dir = join(setup.root, 'branches', id);
  const own = await openBranchTree(setup.tree, setup.base, {
    dir,
    ref: branchRef(setup.tree.ref, 'fan', id),
  });
  edit(dir);
  const { commit } = await own.snapshot(`branch ${id}`);
  if (!commit) throw new Error('no snapshot');
  return { id, commit };
}

const show = (tree: RunTree, commit: string, path: string): string =>
  execFileSync('git', ['--git-dir', tree.gitDir, 'show', `${commit}:${path}`], { encoding: 'utf8' });

describe('mergeSnapshots', () => {
  it('merges branches that wrote different files, and identical edits, in one commit', async () => {
    const setup = await fanOut();
    const sides = [
      await branch(setup, 'a', (dir) => write(dir, 'a.txt', 'a\n')),
      await branch(setup, 'b', (dir) => write(dir, 'nested/b.txt', 'b\n')),
      await branch(setup, 'c', (dir) => write(dir, 'lines.txt', 'same\n')),
      await branch(setup, 'd', (dir) => write(dir, 'lines.txt', 'same\n')),
    ];
    const merged = await mergeSnapshots(setup.tree, setup.base, setup.base, sides);
    if (!merged.ok) throw new Error(JSON.stringify(merged.conflicts));
    expect(show(setup.tree, merged.commit, 'a.txt')).toBe('a\n');
    expect(show(setup.tree, merged.commit, 'nested/b.txt')).toBe('b\n');
    expect(show(setup.tree, merged.commit, 'lines.txt')).toBe('same\n');
    const parents = execFileSync(
      'git',
      ['--git-dir', setup.tree.gitDir, 'log', '-1', '--format=%P', merged.commit],
      {
        encoding: 'utf8',
      },
    );
    expect(parents.trim().split(' ')).toEqual([setup.base, ...sides.map((s) => s.commit)]);
  });

  it('merges edits of one file in different places three ways', async () => {
    const setup = await fanOut();
    const sides = [
      await branch(setup, 'top', (dir) => write(dir, 'lines.txt', `${LINES.replace('one', 'ONE')}\n`)),
      await branch(setup, 'bottom', (dir) => write(dir, 'lines.txt', `${LINES.replace('eight', 'EIGHT')}\n`)),
    ];
    const merged = await mergeSnapshots(setup.tree, setup.base, setup.base, sides);
    if (!merged.ok) throw new Error(JSON.stringify(merged.conflicts));
    expect(show(setup.tree, merged.commit, 'lines.txt')).toBe(
      `${LINES.replace('one', 'ONE').replace('eight', 'EIGHT')}\n`,
    );
  });

  it('names every conflicting file and the branches that changed it, and keeps nothing', async () => {
    const setup = await fanOut();
    const head = setup.tree.head;
    const sides = [
      await branch(setup, 'a', (dir) => {
        write(dir, 'lines.txt', 'a\n');
        write(dir, 'other.txt', 'a\n');
      }),
      await branch(setup, 'b', (dir) => write(dir, 'lines.txt', 'b\n')),
      await branch(setup, 'c', (dir) => write(dir, 'other.txt', 'c\n')),
      await branch(setup, 'd', (dir) => write(dir, 'd.txt', 'd\n')),
    ];
    const merged = await mergeSnapshots(setup.tree, setup.base, setup.base, sides);
    expect(merged).toEqual({
      ok: false,
      conflicts: [
        { path: 'lines.txt', branches: ['a', 'b'] },
        { path: 'other.txt', branches: ['a', 'c'] },
      ],
    });
    // The run's ref and folder are untouched: a merge writes objects only.
    expect(setup.tree.head).toBe(head);
    expect(readFileSync(join(setup.tree.workDir, 'lines.txt'), 'utf8')).toBe(`${LINES}\n`);
  });

  it('merges onto the folder as it is now, its own changes kept', async () => {
    const setup = await fanOut();
    const side = await branch(setup, 'a', (dir) => write(dir, 'a.txt', 'a\n'));
    write(setup.tree.workDir, 'parent.txt', 'written meanwhile\n');
    const ours = (await setup.tree.snapshot('before merge')).commit ?? '';
    const merged = await mergeSnapshots(setup.tree, setup.base, ours, [side]);
    if (!merged.ok) throw new Error('conflict');
    expect(show(setup.tree, merged.commit, 'parent.txt')).toBe('written meanwhile\n');
    expect(show(setup.tree, merged.commit, 'a.txt')).toBe('a\n');
  });
});
