import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DIFF_FILE, recordingChanges } from '../../../src/actors/codergen/recording-changes.js';
import type { CodergenBackend, CodergenRequest } from '../../../src/actors/codergen-backend.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });

/** A git work tree with two committed files, one staged change, a run directory and a runs root inside. */
function workTree(): { dir: string; runDir: string; stageDir: string; records: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'attractor-diff-'));
  dirs.push(dir);
  git(dir, 'init', '-q');
  writeFileSync(path.join(dir, 'keep.txt'), 'one\ntwo\n');
  writeFileSync(path.join(dir, 'gone.txt'), 'bye\n');
  writeFileSync(path.join(dir, '.gitignore'), 'build/\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'start');
  writeFileSync(path.join(dir, 'staged.txt'), 'staged by the user\n');
  git(dir, 'add', 'staged.txt');
  const records = path.join(dir, 'records');
  const runDir = path.join(dir, 'runs', 'r1');
  const stageDir = path.join(runDir, 'work');
  mkdirSync(stageDir, { recursive: true });
  mkdirSync(records);
  writeFileSync(path.join(runDir, 'manifest.json'), '{}');
  return { dir, runDir, stageDir, records };
}

const request = (stageDir: string, workingDir: string): CodergenRequest =>
  ({ stageDir, workingDir, prompt: 'p' }) as unknown as CodergenRequest;

function backendDoing(work: () => void): CodergenBackend {
  return {
    name: 'fake',
    async run() {
      work();
      return { response: 'done' };
    },
  };
}

describe('recordingChanges: what an agent changed, kept as diff.patch', () => {
  it('keeps edits, new and deleted files; leaves out ignored files, run records and the user’s staging', async () => {
    const { dir, runDir, stageDir, records } = workTree();
    const backend = recordingChanges(
      backendDoing(() => {
        writeFileSync(path.join(dir, 'keep.txt'), 'one\n2\n');
        writeFileSync(path.join(dir, 'new.txt'), 'fresh\n');
        unlinkSync(path.join(dir, 'gone.txt'));
        mkdirSync(path.join(dir, 'build'));
        writeFileSync(path.join(dir, 'build', 'out.js'), 'ignored');
        writeFileSync(path.join(runDir, 'events.jsonl'), '{}\n');
        writeFileSync(path.join(records, 'other-run.json'), '{}');
      }),
      { workingDir: dir, recordsDirs: [records] },
    );
    expect((await backend.run(request(stageDir, dir))).response).toBe('done');
    const diff = readFileSync(path.join(stageDir, DIFF_FILE), 'utf8');
    expect(diff).toContain('diff --git a/keep.txt b/keep.txt');
    expect(diff).toMatch(/^-two$/m);
    expect(diff).toMatch(/^\+2$/m);
    expect(diff).toContain('diff --git a/new.txt b/new.txt');
    expect(diff).toMatch(/^\+fresh$/m);
    expect(diff).toContain('deleted file mode');
    expect(diff).not.toMatch(/staged\.txt|build\/out\.js|events\.jsonl|other-run/);
    // The user's index is as it was: the snapshot used an index of its own.
    expect(git(dir, 'diff', '--cached', '--name-only')).toBe('staged.txt\n');
    expect(git(dir, 'ls-files')).not.toContain('new.txt');
  });

  it('writes no diff when nothing changed, or when the folder is in no git work tree', async () => {
    const { dir, stageDir } = workTree();
    await recordingChanges(
      backendDoing(() => {}),
      { workingDir: dir },
    ).run(request(stageDir, dir));
    expect(existsSync(path.join(stageDir, DIFF_FILE))).toBe(false);

    const plain = mkdtempSync(path.join(tmpdir(), 'attractor-nogit-'));
    dirs.push(plain);
    const stage = path.join(plain, 'run', 'n');
    mkdirSync(stage, { recursive: true });
    await recordingChanges(
      backendDoing(() => writeFileSync(path.join(plain, 'a.txt'), 'x')),
      { workingDir: plain },
    ).run(request(stage, plain));
    expect(existsSync(path.join(stage, DIFF_FILE))).toBe(false);
  });

  it('a visit that fails still records what it changed, and its error goes on', async () => {
    const { dir, stageDir } = workTree();
    const failing: CodergenBackend = {
      name: 'fake',
      async run() {
        writeFileSync(path.join(dir, 'half.txt'), 'half done\n');
        throw new Error('model went away');
      },
    };
    await expect(recordingChanges(failing, { workingDir: dir }).run(request(stageDir, dir))).rejects.toThrow(
      'model went away',
    );
    expect(readFileSync(path.join(stageDir, DIFF_FILE), 'utf8')).toMatch(/^\+half done$/m);
  });
});
