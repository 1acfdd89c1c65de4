import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDot } from '../../src/compiler/parse/index.js';
import { readCheckpoint } from '../../src/run/checkpoint.js';
import { forkRun } from '../../src/run/fork-run.js';
import { forkTree } from '../../src/run/fork-tree.js';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { readEvents } from '../helpers/run-helpers.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './run-cli.js';

/** write → middle → check: `middle` writes later.txt and deletes keep.txt; `check` fails until `fixed` exists. */
const PIPELINE = `digraph P {
  start [shape=Mdiamond]
  write [shape=parallelogram, tool_command="echo one > a.txt"]
  middle [shape=parallelogram, tool_command="echo two > later.txt && rm keep.txt"]
  check [shape=parallelogram, tool_command="test -f fixed"]
  exit [shape=Msquare]
  start -> write -> middle -> check -> exit
}
`;

/** A work folder holding keep.txt, and beside it the run's folders (pipeline, scenario, run directory). */
function setUp(): { root: string; work: string; runDir: string; dot: string; scenario: string } {
  const root = tempDir('attractor-run-files-');
  const work = join(root, 'work');
  mkdirSync(work);
  writeFileSync(join(work, 'keep.txt'), 'keep\n');
  const dot = join(root, 'p.dot');
  writeFileSync(dot, PIPELINE);
  const scenario = join(root, 's.json');
  writeFileSync(scenario, '{}');
  return { root, work, runDir: join(root, 'run'), dot, scenario };
}

const run = (s: ReturnType<typeof setUp>, ...extra: string[]) =>
  runCli(['run', s.dot, '--scenario', s.scenario, '--no-tui', '--logs-dir', s.runDir, ...extra], {
    cwd: s.work,
  });
const resume = (s: ReturnType<typeof setUp>, ...extra: string[]) =>
  runCli(['resume', s.runDir, '--scenario', s.scenario, '--no-tui', ...extra], { cwd: s.root });

/** Every file under `dir` with its bytes (what "byte-identical" compares). */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out[path.slice(dir.length + 1)] = readFileSync(path, 'base64');
  }
  return out;
}

describe('the run keeps its files: fork, resume, a removed folder', () => {
  it('records a commit per node, in the checkpoint and on node.complete', async () => {
    const s = setUp();
    expect((await run(s)).code).toBe(1);
    const checkpoint = readCheckpoint(join(s.runDir, 'checkpoint.json'));
    expect(Object.keys(checkpoint.tree_commits ?? {}).sort()).toEqual(['check', 'middle', 'write']);
    expect(checkpoint.tree_head).toBe(checkpoint.tree_commits?.check);
    const completes = readEvents(s.runDir).filter(
      (e) => e.kind === 'node.complete' && e.node_id === 'middle',
    );
    expect(completes[0]?.data).toMatchObject({ commit: checkpoint.tree_commits?.middle });
    const error = readEvents(s.runDir).find((e) => e.kind === 'pipeline.error');
    expect(error?.data).toMatchObject({ commit: checkpoint.tree_head });
  });

  it('forks from a middle node with the files it found, leaving the original folder byte-identical', async () => {
    const s = setUp();
    await run(s);
    const before = contents(s.work);
    expect(Object.keys(before).sort()).toEqual(['a.txt', 'later.txt']);
    const fork = join(s.root, 'fork-files');
    const forked = await runCli(
      [
        'fork',
        s.runDir,
        '--from',
        'middle',
        '--workdir',
        fork,
        '--logs-dir',
        join(s.root, 'fork-run'),
        '--no-tui',
      ],
      { cwd: s.root },
    );
    expect(forked.stdout).toContain('The fork works in fork-files, its files as middle found them.');
    // The fork found its folder as its snapshot says, and ran `middle` there (a new commit of its own).
    const events = readEvents(join(s.root, 'fork-run'));
    const resumed = events.find((e) => e.kind === 'tree.resume');
    expect(resumed?.data).toMatchObject({ action: 'kept', changed: [] });
    // `middle` ran again in the fork's folder: it wrote later.txt and deleted keep.txt there.
    expect(Object.keys(contents(fork)).sort()).toEqual(['a.txt', 'later.txt']);
    expect(contents(s.work)).toEqual(before);
  });

  it('a fork restores the tree as the node found it (before the node runs again)', async () => {
    const s = setUp();
    await run(s);
    const fork = join(s.root, 'fork-files');
    const forked = forkRun({
      from: s.runDir,
      node: 'middle',
      graph: parseDot(PIPELINE).graph,
      source: PIPELINE,
      runDir: join(s.root, 'fork-run'),
    });
    const made = await forkTree({ fork: forked, place: { workdir: fork } });
    expect(made?.how).toBe('checkout');
    expect(readFileSync(join(fork, 'keep.txt'), 'utf8')).toBe('keep\n');
    expect(readFileSync(join(fork, 'a.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(join(fork, 'later.txt'))).toBe(false);
    expect(existsSync(join(fork, '.git'))).toBe(false);
  });

  it('resume lists a deleted file, and --restore-tree brings it back', async () => {
    const listed = setUp();
    await run(listed);
    rmSync(join(listed.work, 'a.txt'));
    const kept = await resume(listed);
    expect(kept.stdout).toMatch(
      /working tree differs from snapshot \w+ \(kept; --restore-tree resets it\): a\.txt\n/,
    );
    expect(existsSync(join(listed.work, 'a.txt'))).toBe(false);

    const reset = setUp();
    await run(reset);
    rmSync(join(reset.work, 'a.txt'));
    writeFileSync(join(reset.work, 'new.txt'), 'not in the snapshot\n');
    const restored = await resume(reset, '--restore-tree');
    expect(restored.stdout).toMatch(/working tree reset to snapshot \w+: a\.txt, new\.txt\n/);
    expect(readFileSync(join(reset.work, 'a.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(join(reset.work, 'new.txt'))).toBe(false);
  });

  it('a run whose folder was removed continues with its tree materialised', async () => {
    const s = setUp();
    await run(s);
    rmSync(s.work, { recursive: true });
    const resumed = await resume(s);
    expect(resumed.stdout).toContain('working tree restored from snapshot');
    expect(readFileSync(join(s.work, 'a.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(s.work, 'later.txt'), 'utf8')).toBe('two\n');
    expect(existsSync(join(s.work, 'keep.txt'))).toBe(false);
  });

  it('a missing snapshot is a clear error naming the node and the way out', async () => {
    const s = setUp();
    await run(s);
    rmSync(s.work, { recursive: true });
    rmSync(join(s.runDir, 'tree.git', 'objects'), { recursive: true });
    mkdirSync(join(s.runDir, 'tree.git', 'objects'));
    const resumed = await resume(s);
    expect(resumed.code).not.toBe(0);
    expect(resumed.stderr).toMatch(
      /snapshot of the working tree at node "check".*missing or damaged.*resume in the folder that holds/s,
    );
  });

  it('a run continued where its snapshots never were goes on with the folder as it is, saying so', async () => {
    const s = setUp();
    await run(s);
    // Another machine: its own copy of the run directory, without the snapshots, and an empty folder.
    rmSync(join(s.runDir, 'tree.git'), { recursive: true });
    rmSync(s.work, { recursive: true });
    const resumed = await resume(s);
    expect(resumed.stdout).toContain("the run's snapshots are on the machine that took them");
    expect(resumed.stdout).toContain('✗ check fail');
    const checkpoint = readCheckpoint(join(s.runDir, 'checkpoint.json'));
    expect(checkpoint.tree_commits?.check).toBeDefined();
  });
});

describe("the user's repository", () => {
  const userGit = (dir: string, ...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: dir,
      encoding: 'utf8',
    });

  it('HEAD, index, stash, branches and status are identical before and after a run in it', async () => {
    const s = setUp();
    userGit(s.work, 'init', '-q');
    userGit(s.work, 'add', 'keep.txt');
    userGit(s.work, 'commit', '-qm', 'one');
    writeFileSync(join(s.work, 'keep.txt'), 'stash me\n');
    userGit(s.work, 'stash', '-q');
    userGit(s.work, 'checkout', '-q', '--detach');
    writeFileSync(join(s.work, 'staged.txt'), 'staged\n');
    userGit(s.work, 'add', 'staged.txt');
    writeFileSync(join(s.work, 'keep.txt'), 'unstaged\n');
    // `middle` deletes keep.txt: put it back before comparing, as the user's work would be.
    const state = () => ({
      status: userGit(s.work, 'status', '--porcelain=v2', '--branch', '--untracked-files=all'),
      stash: userGit(s.work, 'stash', 'list'),
      head: userGit(s.work, 'rev-parse', 'HEAD'),
      branches: userGit(s.work, 'branch', '-a'),
      index: readFileSync(join(s.work, '.git', 'index'), 'base64'),
    });
    const before = state();
    await run(s);
    rmSync(join(s.work, 'a.txt'));
    rmSync(join(s.work, 'later.txt'));
    writeFileSync(join(s.work, 'keep.txt'), 'unstaged\n');
    expect(state()).toEqual(before);
    const head = readCheckpoint(join(s.runDir, 'checkpoint.json')).tree_head;
    expect(userGit(s.work, 'cat-file', '-t', head ?? '').trim()).toBe('commit');
  });
});

describe('without git', () => {
  it('runs as before and says once that files are not snapshotted', async () => {
    await ensureDist();
    const s = setUp();
    const bin = join(s.root, 'bin');
    mkdirSync(bin);
    for (const tool of ['sh', 'echo', 'rm', 'test']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
    const out = spawnSync(
      process.execPath,
      [BIN, 'run', s.dot, '--scenario', s.scenario, '--no-tui', '--logs-dir', s.runDir],
      { cwd: s.work, encoding: 'utf8', env: { PATH: bin, HOME: s.root } },
    );
    expect(out.stdout.match(/files are not snapshotted/g)).toHaveLength(1);
    expect(out.stdout).toContain('✓ middle success');
    expect(existsSync(join(s.runDir, 'tree.git'))).toBe(false);
  });
});
