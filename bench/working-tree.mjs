// The run's working tree (decision 0331) on a generated 10,000-file tree (100 folders × 100 files of
// ~1 KB): (1) the cost of one node's snapshot with 10 files changed, against `git stash create` on the
// same repository and the same 10 changes, measured side by side (alternating, fresh changes each
// round); (2) a branch's worktree (`addWorktree` of a snapshot); (3) materialising a snapshot into an
// empty folder (what a takeover on another machine does), beside copying the same files without git
// (the disk's floor for 10,000 new files). Medians of ROUNDS (two for the folder-making ones). Goals (issue 37): snapshot
// median ≤ 100 ms and ≤ 2× `git stash create`; worktree ≤ 2 s.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gitAvailable } from '../dist/working-tree/git-available.js';
import { openRunTree } from '../dist/working-tree/run-tree.js';
import { addWorktree, removeWorktree } from '../dist/working-tree/tree-worktree.js';

const ROUNDS = Number(process.env.BENCH_RUNS ?? 15);
const FOLDERS = 100;
const PER_FOLDER = 100;
const CHANGED = 10;
const root = mkdtempSync(path.join(tmpdir(), 'attractor-bench-tree-'));
const work = path.join(root, 'repo');

const userGit = (...args) =>
  execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.com', ...args], {
    cwd: work,
    encoding: 'utf8',
  });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const body = (i, round) => `file ${i} round ${round}\n${'x'.repeat(1000)}\n`;

function generate() {
  mkdirSync(work);
  for (let d = 0; d < FOLDERS; d++) {
    const dir = path.join(work, `dir${d}`);
    mkdirSync(dir);
    for (let f = 0; f < PER_FOLDER; f++)
      writeFileSync(path.join(dir, `f${f}.txt`), body(d * PER_FOLDER + f, 0));
  }
  userGit('init', '-q');
  userGit('add', '-A');
  userGit('commit', '-qm', 'tree');
}

/** Change 10 tracked files (a new content each round). */
function change(round) {
  for (let i = 0; i < CHANGED; i++) {
    const d = (round * 7 + i * 13) % FOLDERS;
    writeFileSync(path.join(work, `dir${d}`, `f${i}.txt`), body(i, round));
  }
}

async function main() {
  generate();
  const tree = await openRunTree(
    { workDir: work, runDir: path.join(root, 'run'), runId: 'bench' },
    await gitAvailable(),
  );
  if (!tree) throw new Error('git is missing');
  const first = process.hrtime.bigint();
  await tree.snapshot('start');
  const firstMs = ms(first);
  const ours = [];
  const stash = [];
  for (let round = 1; round <= ROUNDS; round++) {
    change(round);
    // Side by side on the same changes: git's own "record the working tree" first, then ours.
    let start = process.hrtime.bigint();
    userGit('stash', 'create');
    stash.push(ms(start));
    start = process.hrtime.bigint();
    await tree.snapshot(`node ${round}`);
    ours.push(ms(start));
  }
  const worktrees = [];
  const materialised = [];
  const copied = [];
  for (let round = 0; round < 2; round++) {
    const dir = path.join(root, `wt${round}`);
    let start = process.hrtime.bigint();
    await addWorktree(tree, tree.head, dir);
    worktrees.push(ms(start));
    await removeWorktree(tree, dir);
    const into = path.join(root, `mat${round}`);
    start = process.hrtime.bigint();
    await tree.materialise(tree.head, into);
    materialised.push(ms(start));
    rmSync(into, { recursive: true, force: true });
    // The floor: copying the same files with no git at all (the disk's cost of 10,000 new files).
    start = process.hrtime.bigint();
    cpSync(work, path.join(root, `copy${round}`), {
      recursive: true,
      filter: (p) => !p.includes(`${path.sep}.git`),
    });
    copied.push(ms(start));
    rmSync(path.join(root, `copy${round}`), { recursive: true, force: true });
  }
  const snap = median(ours);
  const base = median(stash);
  const wt = median(worktrees);
  console.log(`tree: ${FOLDERS * PER_FOLDER} files, ${CHANGED} changed per node, ${ROUNDS} rounds`);
  console.log(`first snapshot (seeded from the user's index): ${firstMs.toFixed(0)} ms`);
  console.log(
    `snapshot per node: median ${snap.toFixed(1)} ms (goal ≤ 100 ms) ${snap <= 100 ? 'ok' : 'MISSED'}`,
  );
  console.log(
    `git stash create:  median ${base.toFixed(1)} ms; ratio ${(snap / base).toFixed(2)}× (goal ≤ 2×) ${snap <= 2 * base ? 'ok' : 'MISSED'}`,
  );
  console.log(
    `worktree for a branch: median ${wt.toFixed(0)} ms (goal ≤ 2000 ms) ${wt <= 2000 ? 'ok' : 'MISSED'}`,
  );
  const mat = median(materialised);
  const floor = median(copied);
  console.log(
    `materialise into an empty folder: median ${mat.toFixed(0)} ms (copying the files: ${floor.toFixed(0)} ms, ${(mat / floor).toFixed(2)}×)`,
  );
}

try {
  await main();
} finally {
  rmSync(root, { recursive: true, force: true });
}
