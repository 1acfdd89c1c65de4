import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDot, tempDir } from '../../helpers/run-helpers.js';

const BRANCHES = Array.from({ length: 8 }, (_, i) => `b${i + 1}`);

/**
 * A fan-out whose branches are tool nodes: each lists the folder it works in, writes a file of its own
 * and, with `sharedEdit`, rewrites `shared.txt` its own way (a conflict between every two branches).
 */
function fanOutDot(options: { merge?: string; sharedEdit: boolean }): string {
  const merge = options.merge ? `, merge="${options.merge}"` : '';
  const branch = (id: string) => {
    const edit = options.sharedEdit ? ` && echo ${id} > shared.txt` : '';
    return `${id} [shape=parallelogram, tool_command="ls -A > listing-${id}.txt && echo ${id} > ${id}.txt${edit}"]\n${id} -> join\n  fan -> ${id}`;
  };
  return `digraph fan {
    start [shape=Mdiamond]
    fan [shape=component, isolation="worktree", max_parallel=8${merge}]
    ${BRANCHES.map(branch).join('\n')}
    join [shape=tripleoctagon]
    repair [shape=parallelogram, tool_command="echo repaired > repaired.txt"]
    done [shape=Msquare]
    start -> fan
    join -> done [condition="outcome=success"]
    join -> repair [condition="outcome=fail"]
    repair -> done
  }`;
}

/** A working folder holding `shared.txt`, and a runs root apart from it. */
function folder(): { work: string; runsRoot: string } {
  const work = tempDir('attractor-fan-work-');
  writeFileSync(join(work, 'shared.txt'), 'base\n');
  return { work, runsRoot: tempDir('attractor-fan-runs-') };
}

const files = (dir: string): string[] => readdirSync(dir).sort();

describe('parallel isolation="worktree" with real git', () => {
  it('merge="all": eight branches each writing a file all arrive, and no branch saw another', async () => {
    const { work, runsRoot } = folder();
    const run = await runDot(fanOutDot({ sharedEdit: false }), { workingDir: work, runsRoot });
    expect(run.result.status).toBe('completed');
    expect(run.visited).not.toContain('repair');
    expect(files(work)).toEqual(
      [...BRANCHES.map((b) => `${b}.txt`), ...BRANCHES.map((b) => `listing-${b}.txt`), 'shared.txt'].sort(),
    );
    for (const b of BRANCHES) {
      // Each branch's folder held the fan-out's snapshot and its own listing, nothing of the others.
      expect(
        readFileSync(join(work, `listing-${b}.txt`), 'utf8')
          .trim()
          .split('\n')
          .sort(),
      ).toEqual([`listing-${b}.txt`, 'shared.txt'].sort());
    }
    expect(readFileSync(join(work, 'shared.txt'), 'utf8')).toBe('base\n');
    expect(run.result.context['merge.branches']).toEqual(BRANCHES);
    const results = run.result.context['parallel.results'] as Array<{ commit?: string }>;
    expect(results.every((r) => typeof r.commit === 'string')).toBe(true);
    // The branches' folders are gone; their commits stay on the run's refs.
    expect(existsSync(join(run.runDir, 'worktrees', 'fan'))).toBe(true);
    expect(readdirSync(join(run.runDir, 'worktrees', 'fan'))).toEqual([]);
    const gitDir = join(run.runDir, 'tree.git');
    const ref = `refs/attractor/branches/${run.result.runId}/fan/b3`;
    const shown = execFileSync('git', ['--git-dir', gitDir, 'show', `${ref}:b3.txt`], { encoding: 'utf8' });
    expect(shown).toBe('b3\n');
  });

  it('merge="all": every branch editing shared.txt is the fan-in\'s FAIL with merge.conflicts, routed to repair; nothing half-merged', async () => {
    const { work, runsRoot } = folder();
    const run = await runDot(fanOutDot({ sharedEdit: true }), { workingDir: work, runsRoot });
    expect(run.result.status).toBe('completed');
    expect(run.visited).toContain('repair');
    expect(run.result.context['merge.conflicts']).toEqual([{ path: 'shared.txt', branches: BRANCHES }]);
    // The folder is as the fan-out found it, plus what repair wrote.
    expect(files(work)).toEqual(['repaired.txt', 'shared.txt']);
    expect(readFileSync(join(work, 'shared.txt'), 'utf8')).toBe('base\n');
  });

  it('merge="best": only the branch the fan-in selected arrives', async () => {
    const { work, runsRoot } = folder();
    const run = await runDot(fanOutDot({ merge: 'best', sharedEdit: true }), { workingDir: work, runsRoot });
    const best = run.result.context['parallel.fan_in.best_id'];
    expect(typeof best).toBe('string');
    expect(run.visited).not.toContain('repair');
    expect(files(work)).toEqual([`${best}.txt`, `listing-${best}.txt`, 'shared.txt'].sort());
    expect(readFileSync(join(work, 'shared.txt'), 'utf8')).toBe(`${best}\n`);
  });

  it('merge="none": the folder stays as it was; every branch commit is on its ref', async () => {
    const { work, runsRoot } = folder();
    const run = await runDot(fanOutDot({ merge: 'none', sharedEdit: true }), { workingDir: work, runsRoot });
    expect(run.visited).not.toContain('repair');
    expect(files(work)).toEqual(['shared.txt']);
    const gitDir = join(run.runDir, 'tree.git');
    for (const b of BRANCHES) {
      const ref = `refs/attractor/branches/${run.result.runId}/fan/${b}`;
      expect(
        execFileSync('git', ['--git-dir', gitDir, 'show', `${ref}:shared.txt`], { encoding: 'utf8' }),
      ).toBe(`${b}\n`);
    }
  });

  it('with no fan-in, the branches merge where the parallel node completes', async () => {
    const { work, runsRoot } = folder();
    const dot = `digraph fan {
      start [shape=Mdiamond]
      fan [shape=component, isolation="worktree"]
      a [shape=parallelogram, tool_command="echo a > from-$(basename $PWD).txt"]
      b [shape=parallelogram, tool_command="echo b > from-$(basename $PWD).txt"]
      done [shape=Msquare]
      start -> fan -> a -> done
      fan -> b -> done
    }`;
    const run = await runDot(dot, { workingDir: work, runsRoot });
    expect(run.result.context['merge.branches']).toEqual(['a', 'b']);
    expect(run.result.context['merge.branches']).toEqual(['a', 'b']);
    // The branches' files arrived by the merge (the run then goes on into `a` itself, as without isolation).
    expect(files(work)).toEqual(expect.arrayContaining(['from-a.txt', 'from-b.txt']));
  });

  it("in a repository: each branch is a git worktree where git works; the user's HEAD, index and worktrees are as before", async () => {
    const { work, runsRoot } = folder();
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
        cwd: work,
        encoding: 'utf8',
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
      });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'base');
    const before = { head: git('rev-parse', 'HEAD'), index: readFileSync(join(work, '.git', 'index')) };
    const dot = `digraph repo {
      start [shape=Mdiamond]
      fan [shape=component, isolation="worktree"]
      a [shape=parallelogram, tool_command="echo a > a.txt && git status --porcelain > status-a.txt"]
      b [shape=parallelogram, tool_command="echo b > b.txt && git status --porcelain > status-b.txt"]
      join [shape=tripleoctagon]
      done [shape=Msquare]
      start -> fan -> a -> join
      fan -> b -> join
      join -> done
    }`;
    const run = await runDot(dot, { workingDir: work, runsRoot });
    expect(run.result.status).toBe('completed');
    expect(readFileSync(join(work, 'status-a.txt'), 'utf8')).toBe('?? a.txt\n?? status-a.txt\n');
    expect(readFileSync(join(work, 'status-b.txt'), 'utf8')).toBe('?? b.txt\n?? status-b.txt\n');
    expect(git('rev-parse', 'HEAD')).toBe(before.head);
    expect(readFileSync(join(work, '.git', 'index')).equals(before.index)).toBe(true);
    expect(git('worktree', 'list').trim().split('\n')).toHaveLength(1);
  });
});
