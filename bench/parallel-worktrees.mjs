// RUNS (20) isolated 32-way fan-outs (isolation="worktree") in one process at once: each branch gets a
// folder of its own from the fan-out's snapshot, writes a file, and the branches merge at the fan-in.
// Target: every run completes with all 32 files and no git lock error; prints the wall time against
// the same runs in one shared folder (no isolation), side by side.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPipeline } from '../dist/index.js';

const RUNS = Number(process.env.RUNS ?? 20);
const WIDTH = 32;
const ids = Array.from({ length: WIDTH }, (_, i) => `w${i}`);
const dot = (isolation) => `digraph wide {
  start [shape=Mdiamond]
  fan [shape=component, max_parallel=${WIDTH}${isolation ? ', isolation="worktree"' : ''}]
  ${ids.map((id) => `${id} [shape=parallelogram, tool_command="echo ${id} > ${id}.txt"]\n  fan -> ${id} -> join`).join('\n  ')}
  join [shape=tripleoctagon]
  done [shape=Msquare]
  start -> fan
  join -> done
}`;

async function round(isolation) {
  const root = mkdtempSync(join(tmpdir(), 'bench-worktrees-'));
  const began = performance.now();
  try {
    const runs = await Promise.all(
      Array.from({ length: RUNS }, async (_, i) => {
        const work = join(root, `work-${i}`);
        mkdirSync(work);
        writeFileSync(join(work, 'shared.txt'), 'base\n');
        const result = await runPipeline({
          source: dot(isolation),
          workingDir: work,
          runsRoot: join(root, `runs-${i}`),
          durable: false,
        });
        return { result, work };
      }),
    );
    const ms = performance.now() - began;
    const bad = runs.filter(
      ({ result, work }) => result.status !== 'completed' || readdirSync(work).length !== WIDTH + 1,
    );
    return { ms, bad: bad.length, reasons: bad.map(({ result }) => result.failure?.reason).slice(0, 3) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const shared = await round(false);
const isolated = await round(true);
console.log(`${RUNS} × ${WIDTH}-way fan-outs at once`);
console.log(`  shared folder:      ${(shared.ms / 1000).toFixed(1)} s, ${shared.bad} runs wrong`);
console.log(`  isolation=worktree: ${(isolated.ms / 1000).toFixed(1)} s, ${isolated.bad} runs wrong`);
if (isolated.bad > 0) console.log(`  failures: ${isolated.reasons.join(' | ')}`);
console.log(`  ratio: ${(isolated.ms / shared.ms).toFixed(2)}×`);
process.exitCode = isolated.bad > 0 || shared.bad > 0 ? 1 : 0;
