// What tracing costs a run: the CPU time (user + system) of `runPipeline` on the engine-step chains —
// N no-op work nodes, every checkpoint fsync'd — with a trace exported over OTLP/HTTP to a collector in
// this process, against the same run untraced. Interleaved pairs (untraced, traced, untraced, …), the
// median of the per-pair ratios: wall time alone is noisier than the 5% being looked for here. The traced
// side pays for what tracing adds to a run: its spans and their export over HTTP (flushed inside the
// measured window); the exporter is set up once per process, as a server or worker does, and the
// collector is a process of its own.
// Target: a step's CPU (the slope between sizes) traced ≤ 1.05× untraced; the per-run ratios, which
// carry each run's own export request, are printed too. SIZES=10,100 measures only those sizes.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDefaultRegistry, runPipeline } from '../dist/index.js';
import { createTelemetry } from '../dist/telemetry.js';

const SIZES = (process.env.SIZES ?? '10,100,1000').split(',').map(Number);
// Per-run medians (ms of CPU) by size, for the per-step slope: what a step costs once a run's fixed
// costs (its export request, its run directory) cancel out.
const perRun = new Map();

const registry = createDefaultRegistry().register('noop', async () => ({ status: 'success' }));

function workChainDot(n) {
  const lines = ['digraph chain {', '  start [shape=Mdiamond]', '  exit [shape=Msquare]'];
  for (let i = 0; i < n; i++) lines.push(`  n${i} [type="noop"]`);
  lines.push('  start -> n0');
  for (let i = 0; i < n - 1; i++) lines.push(`  n${i} -> n${i + 1}`);
  lines.push(`  n${n - 1} -> exit`, '}');
  return lines.join('\n');
}

// The collector runs in a process of its own, as a real one does: its CPU is not the run's.
const COLLECTOR = `
  const { createServer } = require('node:http');
  let spans = 0;
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/count') return response.end(String(spans));
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const resource of body.resourceSpans ?? [])
        for (const scope of resource.scopeSpans ?? []) spans += scope.spans?.length ?? 0;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;
const child = spawn(process.execPath, ['-e', COLLECTOR], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise((resolve) =>
  child.stdout.once('data', (data) => resolve(Number(String(data).trim()))),
);
const url = `http://127.0.0.1:${port}/v1/traces`;
const spansReceived = async () => Number(await (await fetch(`http://127.0.0.1:${port}/count`)).text());

// One export for the whole process, as a server or worker has: what is measured is what each run adds.
const shared = createTelemetry({
  url,
  headers: {},
  captureContent: false,
  serviceName: 'bench',
  onExportError: console.error,
});

async function cpuOfRun(source, N, traced) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-tracing-'));
  const before = process.cpuUsage();
  const telemetry = traced ? shared : undefined;
  const result = await runPipeline({
    source,
    runsRoot: dir,
    maxSteps: N + 10,
    durable: true,
    registry,
    ...(telemetry ? { telemetry } : {}),
  });
  await telemetry?.flush();
  const used = process.cpuUsage(before);
  if (result.status !== 'completed') throw new Error(`run ended ${result.status}`);
  rmSync(dir, { recursive: true, force: true });
  return (used.user + used.system) / 1000;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const N of SIZES) {
  const pairs = N >= 1000 ? 7 : N >= 100 ? 15 : 41;
  const source = workChainDot(N);
  await cpuOfRun(source, N, false);
  await cpuOfRun(source, N, true);
  const ratios = [];
  const plain = [];
  const traced = [];
  const receivedBefore = await spansReceived();
  for (let i = 0; i < pairs; i++) {
    // Alternate which side goes first, so neither always runs on a warmer process.
    const [a, b] = i % 2 === 0 ? [false, true] : [true, false];
    const first = await cpuOfRun(source, N, a);
    const second = await cpuOfRun(source, N, b);
    const off = a ? second : first;
    const on = a ? first : second;
    plain.push(off);
    traced.push(on);
    ratios.push(on / off);
  }
  const ratio = median(ratios);
  perRun.set(N, { off: median(plain), on: median(traced) });
  const spansPerRun = ((await spansReceived()) - receivedBefore) / pairs;
  console.log(
    `N=${N}: untraced ${(median(plain) / (N + 2)).toFixed(3)} ms CPU/step, traced ${(median(traced) / (N + 2)).toFixed(3)} ms CPU/step (${spansPerRun.toFixed(0)} spans exported per run), ratio ${ratio.toFixed(3)}x (target <= 1.05x) ${ratio <= 1.05 ? 'OK' : 'MISSED'}`,
  );
}
const sizes = [...perRun.keys()].sort((a, b) => a - b);
if (sizes.length >= 2) {
  const [small, large] = [sizes[0], sizes[sizes.length - 1]];
  const slope = (side) => (perRun.get(large)[side] - perRun.get(small)[side]) / (large - small);
  const ratio = slope('on') / slope('off');
  console.log(
    `per step (slope N=${small}→${large}): untraced ${slope('off').toFixed(3)} ms CPU, traced ${slope('on').toFixed(3)} ms CPU, ratio ${ratio.toFixed(3)}x (target <= 1.05x) ${ratio <= 1.05 ? 'OK' : 'MISSED'}`,
  );
}
await shared.shutdown();
child.kill();
