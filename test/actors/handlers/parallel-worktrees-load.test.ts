import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDot, tempDir } from '../../helpers/run-helpers.js';

function folder(): { work: string; runsRoot: string } {
  const work = tempDir('attractor-fan-work-');
  writeFileSync(join(work, 'shared.txt'), 'base\n');
  return { work, runsRoot: tempDir('attractor-fan-runs-') };
}

const files = (dir: string): string[] => readdirSync(dir).sort();

const ids = Array.from({ length: 32 }, (_, i) => `w${i}`);
/** 32 isolated branches, each writing a file of its own, joined at one fan-in. */
const dot = `digraph wide {
  start [shape=Mdiamond]
  fan [shape=component, isolation="worktree", max_parallel=32]
  ${ids.map((id) => `${id} [shape=parallelogram, tool_command="echo ${id} > ${id}.txt"]\n fan -> ${id} -> join`).join('\n')}
  join [shape=tripleoctagon]
  done [shape=Msquare]
  start -> fan
  join -> done
}`;

// Isolated 32-way fan-outs in one process at once: branch folders made, snapshotted and merged side by
// side on one machine, git commands queued behind the process's git slots. Six runs here (192 branches)
// keep the suite's time; bench/parallel-worktrees.mjs runs the issue's twenty (640 branches).
describe('parallel isolation="worktree" under load', () => {
  it('32 branches × 6 runs at once: no git lock error', async () => {
    const runs = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const { work, runsRoot } = folder();
        const run = await runDot(dot, { workingDir: work, runsRoot });
        return { run, work };
      }),
    );
    for (const { run, work } of runs) {
      const failures = (run.result.context['parallel.results'] as Array<{ failure_reason?: string }>).flatMap(
        (r) => (r.failure_reason ? [r.failure_reason] : []),
      );
      expect(failures).toEqual([]);
      expect(run.result.status).toBe('completed');
      expect(files(work)).toHaveLength(33);
    }
  }, 400_000);

  it('three 32-way runs in one repository at once, sandboxed: every git worktree made and removed, no branch failed', async () => {
    const { work } = folder();
    execFileSync('git', ['init', '-q'], { cwd: work, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
    const runs = await Promise.all(
      [1, 2, 3].map(() => runDot(dot, { workingDir: work, runsRoot: tempDir('attractor-fan-runs-') })),
    );
    for (const run of runs) {
      const results = run.result.context['parallel.results'] as Array<{ failure_reason?: string }>;
      expect(results.flatMap((r) => (r.failure_reason ? [r.failure_reason] : []))).toEqual([]);
    }
    expect(files(work)).toEqual(['.git', ...ids.map((id) => `${id}.txt`), 'shared.txt'].sort());
    const listed = execFileSync('git', ['worktree', 'list'], { cwd: work, encoding: 'utf8' });
    expect(listed.trim().split('\n')).toHaveLength(1);
  }, 300_000);
});
