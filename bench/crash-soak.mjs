// Crash soak: N rounds of `attractor run` killed with SIGKILL at a random moment, then one
// `attractor resume`. A round is clean when the resume finishes the run (exit 0), no node or parallel
// branch that completed before the crash runs again, and no re-run overlaps a process the dead run left.
// Every tool appends "start <node> <ms>" / "end <node> <ms>" to marks.log. SOAK_ROUNDS=N (default 20).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(root, 'bin/attractor.js');
const ROUNDS = Number(process.env.SOAK_ROUNDS ?? 20);

const tool = (node, ms) =>
  `tool_command="echo start ${node} $(date +%s%3N) >> \\"$MARKS\\"; sleep ${ms / 1000}; echo end ${node} $(date +%s%3N) >> \\"$MARKS\\""`;

const PIPELINE = `digraph soak {
  graph [env_passthrough="MARKS"]
  start [shape=Mdiamond]
  prep [shape=parallelogram, ${tool('prep', 300)}]
  fan [shape=component]
  b1 [shape=parallelogram, ${tool('b1', 400)}]
  b2 [shape=parallelogram, ${tool('b2', 700)}]
  join [shape=tripleoctagon]
  manage [shape=house, stack.child_dotfile="child.dot", manager.poll_interval="100ms", manager.max_cycles=100, manager.actions="observe"]
  final [shape=parallelogram, ${tool('final', 300)}]
  exit [shape=Msquare]
  start -> prep -> fan
  fan -> b1 -> join
  fan -> b2 -> join
  join -> manage -> final -> exit
}`;
const CHILD = `digraph child {
  graph [env_passthrough="MARKS"]
  start [shape=Mdiamond]
  c1 [shape=parallelogram, ${tool('c1', 300)}]
  c2 [shape=parallelogram, ${tool('c2', 300)}]
  exit [shape=Msquare]
  start -> c1 -> c2 -> exit
}`;

function parseMarks(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [kind, node, at] = l.split(' ');
      return { kind, node, at: Number(at) };
    });
}

/**
 * What the run had durably finished when it died: top-level nodes in the checkpoint, parallel branches
 * with a saved result, and the child pipeline's completed nodes (from its own checkpoint, if it has one).
 * A node that finished its work but was not yet recorded is the interrupted node: running it again is allowed.
 */
function completedAtCrash(runDir) {
  const done = new Set();
  const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
  for (const n of read(path.join(runDir, 'checkpoint.json'))?.completed_nodes ?? []) done.add(n);
  const branches = path.join(runDir, 'fan', 'branch-results');
  if (existsSync(branches))
    for (const f of readdirSync(branches)) done.add(decodeURIComponent(f.replace(/\.json$/, '')));
  for (const n of read(path.join(runDir, 'manage', 'child', 'checkpoint.json'))?.completed_nodes ?? [])
    done.add(n);
  return done;
}

/** Problems in one round's marks: a node durably finished before the crash that ran again; overlapping runs. */
function judge(marks, crashAt, completed) {
  const problems = [];
  const byNode = new Map();
  for (const m of marks) {
    if (!byNode.has(m.node)) byNode.set(m.node, []);
    byNode.get(m.node).push(m);
  }
  for (const [node, list] of byNode) {
    const ends = list.filter((m) => m.kind === 'end');
    const starts = list.filter((m) => m.kind === 'start');
    if (completed.has(node) && starts.some((m) => m.at > crashAt)) {
      problems.push(`${node} completed before the crash and ran again`);
    }
    if (ends.length === 0) problems.push(`${node} never finished`);
    // A run started before the crash that never wrote its end and was never stopped by resume died with
    // the crash: a sandboxed command dies with its engine (bwrap --die-with-parent). A leftover that went
    // on would have written its end mark in the time the round waits.
    const died = Math.max(
      0,
      starts.filter((m) => m.at < crashAt).length - ends.filter((m) => m.at < crashAt).length,
    );
    const unended = starts.length - ends.length;
    for (let i = 0; i < Math.min(died, unended); i++) list.push({ kind: 'end', node, at: crashAt });
    // Overlap: a start while an earlier start of the same node has not ended yet.
    let open = 0;
    for (const m of list.sort((a, b) => a.at - b.at)) {
      if (m.kind === 'start') {
        if (open > 0) problems.push(`${node} re-ran while a leftover run of it was still going`);
        open++;
      } else open = Math.max(0, open - 1);
    }
  }
  return problems;
}

let clean = 0;
const failures = [];
for (let round = 1; round <= ROUNDS; round++) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'attractor-soak-'));
  const marks = path.join(dir, 'marks.log');
  writeFileSync(path.join(dir, 'p.dot'), PIPELINE);
  writeFileSync(path.join(dir, 'child.dot'), CHILD);
  writeFileSync(path.join(dir, 's.json'), '{}');
  const env = { ...process.env, MARKS: marks };
  const child = spawn(process.execPath, [BIN, 'run', 'p.dot', '--scenario', 's.json', '--logs-dir', 'run'], {
    cwd: dir,
    env,
    stdio: 'ignore',
  });
  const exited = new Promise((r) => child.on('exit', r));
  // The crash comes at a random moment after the run has started (its first checkpoint exists).
  const started = Date.now();
  while (!existsSync(path.join(dir, 'run', 'checkpoint.json')) && Date.now() - started < 20_000) {
    await new Promise((r) => setTimeout(r, 10));
  }
  const delay = Math.random() * 2800;
  await Promise.race([new Promise((r) => setTimeout(r, delay)), exited]);
  const crashAt = Date.now();
  child.kill('SIGKILL');
  await exited;
  const completed = completedAtCrash(path.join(dir, 'run'));
  const resumed = spawnSync(process.execPath, [BIN, 'resume', path.join(dir, 'run')], {
    cwd: dir,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  await new Promise((r) => setTimeout(r, 800)); // let any leftover that was not stopped write its end mark
  // A leftover that resume stopped never writes its end mark: its process.stopped event is its end.
  const stops = existsSync(path.join(dir, 'run', 'events.jsonl'))
    ? readFileSync(path.join(dir, 'run', 'events.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.includes('"process.stopped"'))
        .map((l) => JSON.parse(l))
        .map((e) => ({ kind: 'end', node: e.node_id, at: Date.parse(e.timestamp) }))
    : [];
  const problems = judge([...parseMarks(marks), ...stops], crashAt, completed);
  if (resumed.status !== 0)
    problems.push(`resume exited ${resumed.status}: ${resumed.stderr.trim().split('\n').at(-1)}`);
  if (problems.length === 0) clean++;
  else failures.push(`round ${round} (crash after ${delay.toFixed(0)} ms): ${problems.join('; ')}`);
  rmSync(dir, { recursive: true, force: true });
}
for (const f of failures) console.log(f);
console.log(`crash soak: ${clean}/${ROUNDS} rounds clean (goal: all)`);
