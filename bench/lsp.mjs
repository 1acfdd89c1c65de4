// `attractor lsp`: how long after an edit the diagnostics of a 200-node pipeline arrive, measured from
// sending `didChange` to receiving `publishDiagnostics` for that version, over the real CLI's stdio.
// Each edit alternately misspells an attribute and fixes it (so every version's diagnostics differ),
// 60 ms apart (a typist's pace), after BENCH_WARMUP untimed ones. Target: every edit's diagnostics within 100 ms (the p95 and the max).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'attractor.js');
const NODES = Number(process.env.LSP_NODES ?? 200);
const EDITS = Number(process.env.BENCH_RUNS ?? 40);
// An editor's server lives for the session: the first edits, while V8 compiles the parser, are not timed.
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
const TARGET_MS = 100;

if (!existsSync(path.join(root, 'dist', 'bin', 'attractor.js'))) {
  console.error('lsp: dist/ is missing; run `npm run build` (or `npm run bench`, which builds first)');
  process.exit(1);
}

/** A pipeline-shaped chain: LLM steps, a tool node every 7th, a check looping back every 10th. */
function pipeline(n) {
  const lines = [`digraph bench_${n} {`, `  graph [goal="Benchmark pipeline with ${n} nodes"]`];
  lines.push('  start [shape=Mdiamond]', '  exit [shape=Msquare]');
  const ids = Array.from({ length: n - 2 }, (_, i) => `step_${i + 1}`);
  ids.forEach((id, i) => {
    if ((i + 1) % 10 === 0) lines.push(`  ${id} [shape=diamond, label="Check ${i + 1}"]`);
    else if ((i + 1) % 7 === 0) lines.push(`  ${id} [shape=parallelogram, tool_command="echo ${i + 1}"]`);
    else lines.push(`  ${id} [label="Step ${i + 1}", prompt="Do part ${i + 1} of: $goal", max_retries=1]`);
  });
  let previous = 'start';
  ids.forEach((id, i) => {
    lines.push(`  ${previous} -> ${id}`);
    if ((i + 1) % 10 === 0) lines.push(`  ${id} -> ${ids[i - 1]} [condition="outcome=fail", label="again"]`);
    previous = id;
  });
  lines.push(`  ${previous} -> exit`, '}');
  return `${lines.join('\n')}\n`;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'attractor-bench-lsp-'));
const file = path.join(dir, 'bench.dot');
const text = pipeline(NODES);
writeFileSync(file, text);
const uri = pathToFileURL(file).href;

const child = spawn(process.execPath, [bin, 'lsp', '--stdio'], {
  cwd: dir,
  stdio: ['pipe', 'pipe', 'inherit'],
});
const connection = createMessageConnection(
  new StreamMessageReader(child.stdout),
  new StreamMessageWriter(child.stdin),
);
const arrived = new Map();
const waiting = new Map();
connection.onNotification('textDocument/publishDiagnostics', (params) => {
  const at = performance.now();
  arrived.set(params.version, { at, count: params.diagnostics.length });
  waiting.get(params.version)?.();
});
connection.listen();

/** The server's CPU time so far (user + system, ms), from /proc: what an edit costs it, whatever the load. */
const cpuMs = () => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};

const published = (version) =>
  arrived.has(version) ? Promise.resolve() : new Promise((resolve) => waiting.set(version, resolve));

await connection.sendRequest('initialize', {
  processId: process.pid,
  rootUri: pathToFileURL(dir).href,
  capabilities: {},
});
await connection.sendNotification('initialized', {});
await connection.sendNotification('textDocument/didOpen', {
  textDocument: { uri, languageId: 'dot', version: 1, text },
});
await published(1);

const latencies = [];
const cpu = [];
let counts = '';
for (let version = 2; version < WARMUP + EDITS + 2; version++) {
  const misspelt = version % 2 === 0;
  const step = 1 + ((version * 37) % (NODES - 3));
  const edited = misspelt ? text.replace(`prompt="Do part ${step} of`, `promt="Do part ${step} of`) : text;
  await new Promise((resolve) => setTimeout(resolve, 60));
  const cpuBefore = cpuMs();
  const sent = performance.now();
  await connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version },
    contentChanges: [{ text: edited }],
  });
  await published(version);
  if (version < 4) counts += ` v${version}: ${arrived.get(version).count} diagnostics;`;
  if (version < WARMUP + 2) continue;
  latencies.push(arrived.get(version).at - sent);
  cpu.push(cpuMs() - cpuBefore);
}

await connection.sendRequest('shutdown');
await connection.sendNotification('exit');
await new Promise((resolve) => child.once('exit', resolve));
connection.dispose();
rmSync(dir, { recursive: true, force: true });

latencies.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);
const pick = (q, list = latencies) => list[Math.min(list.length - 1, Math.floor(q * list.length))];
const worst = latencies[latencies.length - 1];
const verdict = pick(0.95) <= TARGET_MS && worst <= TARGET_MS ? 'OK' : 'MISSED';
console.log(`lsp: ${NODES}-node pipeline, ${EDITS} timed edits after ${WARMUP};${counts}`);
console.log(
  `lsp: diagnostics after an edit: median ${pick(0.5).toFixed(1)} ms, p95 ${pick(0.95).toFixed(1)} ms, ` +
    `max ${worst.toFixed(1)} ms (target <= ${TARGET_MS} ms) ${verdict}`,
);
console.log(
  `lsp: the server's CPU per edit (10 ms ticks): median ${pick(0.5, cpu)} ms, p95 ${pick(0.95, cpu)} ms; ` +
    `load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
);
