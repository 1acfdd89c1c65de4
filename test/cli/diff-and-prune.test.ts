import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckpoint } from '../../src/run/checkpoint.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './run-cli.js';

const PIPELINE = `digraph P {
  start [shape=Mdiamond]
  write [shape=parallelogram, tool_command="echo one > a.txt"]
  change [shape=parallelogram, tool_command="echo two >> a.txt && echo new > b.txt"]
  exit [shape=Msquare]
  start -> write -> change -> exit
}
`;

function setUp(): { work: string; dot: string; scenario: string } {
  const work = tempDir('attractor-diff-');
  const dot = join(work, 'p.dot');
  writeFileSync(dot, PIPELINE);
  const scenario = join(work, 's.json');
  writeFileSync(scenario, '{}');
  return { work, dot, scenario };
}

const userGit = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });

describe('attractor diff', () => {
  it("prints a node's changes, the whole run's, and a diffstat, from the snapshots", async () => {
    const s = setUp();
    const runDir = join(s.work, '.attractor-runs', 'r');
    const ran = await runCli(['run', s.dot, '--scenario', s.scenario, '--no-tui', '--logs-dir', runDir], {
      cwd: s.work,
    });
    expect(ran.code).toBe(0);
    const node = await runCli(['diff', runDir, '--node', 'change'], { cwd: s.work });
    expect(node.stdout).toContain('+two');
    expect(node.stdout).toContain('+new');
    expect(node.stdout).not.toContain('+one');
    const whole = await runCli(['diff', runDir], { cwd: s.work });
    expect(whole.stdout).toMatch(/\+one\n\+two/);
    // The run's own records are never part of its files.
    expect(whole.stdout).not.toContain('.attractor-runs');
    const stat = await runCli(['diff', runDir, '--node', 'write', '--stat'], { cwd: s.work });
    expect(stat.stdout).toMatch(/a\.txt \| 1 \+\n 1 file changed/);
    const none = await runCli(['diff', runDir, '--node', 'start'], { cwd: s.work });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('has no snapshot of node "start"');
  });
});

describe('attractor runs --prune', () => {
  it('removes finished runs older than the age and their refs; gc keeps what a kept run needs', async () => {
    const s = setUp();
    userGit(s.work, 'init', '-q');
    writeFileSync(join(s.work, '.gitignore'), '.attractor-runs/\n');
    const runs = join(s.work, '.attractor-runs');
    const old = join(runs, 'old');
    const kept = join(runs, 'kept');
    for (const dir of [old, kept])
      await runCli(['run', s.dot, '--scenario', s.scenario, '--no-tui', '--logs-dir', dir], { cwd: s.work });
    const oldHead = readCheckpoint(join(old, 'checkpoint.json')).tree_head ?? '';
    const keptHead = readCheckpoint(join(kept, 'checkpoint.json')).tree_head ?? '';
    const monthAgo = new Date(Date.now() - 40 * 86_400_000);
    utimesSync(join(old, 'checkpoint.json'), monthAgo, monthAgo);
    const pruned = await runCli(['runs', '--prune', '--older-than', '30d'], { cwd: s.work });
    expect(pruned.stdout).toMatch(/removed completed run \S+ \(\.attractor-runs\/old\)\nPruned 1 run\./);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(kept)).toBe(true);
    const refs = userGit(s.work, 'for-each-ref', '--format=%(objectname)', 'refs/attractor/runs/');
    expect(refs.trim()).toBe(keptHead);
    userGit(s.work, 'gc', '--quiet', '--prune=now');
    expect(userGit(s.work, 'cat-file', '-t', keptHead).trim()).toBe('commit');
    expect(spawnSync('git', ['cat-file', '-e', oldHead], { cwd: s.work }).status).not.toBe(0);
  });

  it('refuses an age it cannot read', async () => {
    const s = setUp();
    mkdirSync(join(s.work, '.attractor-runs'));
    const bad = await runCli(['runs', '--prune', '--older-than', 'soon'], { cwd: s.work });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--older-than soon: not an age');
  });
});
