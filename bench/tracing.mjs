// What tracing costs a run: the CPU time (user + system, all of the process's threads) of `runPipeline`
// on the engine-step chains — N no-op work nodes, every checkpoint fsync'd — with a trace exported over
// OTLP/HTTP to a collector in a process of its own, against the same run untraced, in pairs; each side
// goes first in half the pairs, in a random order (wall time alone is noisier than the 5% looked for
// here). A fixed order (untraced, traced, traced, untraced, …) lined up with a cost that comes back every
// few runs (the heap's collections): with both sides untraced, it put one 5–7% above the other at N=1,000.
// The window: a traced run's window holds everything tracing adds to it — its spans and their export
// (serialisation and the HTTP request), flushed before the window closes, so no export of this run
// falls into another's window or outside every window. A server's batch processor would send the same
// spans from a timer, a request a second for all its runs; flushing each run pays one request per run,
// which is more than a server pays (a CLI run pays it once, at its end). The exporter is set up once per
// process, as a server or worker does.
// Target: a step's CPU traced ≤ 1.05× untraced. Per step: what tracing adds to a run (the median of
// the pairs' differences) grows with N by the slope between the smallest and largest size, over the
// untraced run's slope — the run's fixed costs (its export request, its run directory) cancel out.
// The per-run ratios (median, and the middle half of the pairs) are printed too. SIZES=10,100
// measures only those sizes; PAIRS=n sets the pairs at every size. TMPDIR=/dev/shm takes the disk's
// noise out, and the fsync's CPU out of a step: tracing's share of a step is larger there. AA=1 leaves
// both sides untraced: what the method reads when there is nothing to find (its bias and spread).

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDefaultRegistry, runPipeline } from '../dist/index.js';
import { createTelemetry } from '../dist/telemetry.js';

const SIZES = (process.env.SIZES ?? '10,100,1000').split(',').map(Number);
const PAIRS = process.env.PAIRS ? Number(process.env.PAIRS) : undefined;
// By size: the untraced runs' median and the median of the pairs' differences (ms of CPU).
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
  const telemetry = traced && !process.env.AA ? shared : undefined;
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

function shuffled(items) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)];
const median = (xs) => quantile(xs, 0.5);
for (const N of SIZES) {
  const pairs = PAIRS ?? (N >= 1000 ? 15 : N >= 100 ? 21 : 41);
  const source = workChainDot(N);
  await cpuOfRun(source, N, false);
  await cpuOfRun(source, N, true);
  const ratios = [];
  const plain = [];
  const traced = [];
  const receivedBefore = await spansReceived();
  const tracedFirst = shuffled(Array.from({ length: pairs }, (_, i) => i % 2 === 0));
  for (let i = 0; i < pairs; i++) {
    const [a, b] = tracedFirst[i] ? [true, false] : [false, true];
    const first = await cpuOfRun(source, N, a);
    const second = await cpuOfRun(source, N, b);
    const off = a ? second : first;
    const on = a ? first : second;
    plain.push(off);
    traced.push(on);
    ratios.push(on / off);
  }
  const ratio = median(ratios);
  const added = median(traced.map((on, i) => on - plain[i]));
  perRun.set(N, { off: median(plain), added });
  const spansPerRun = ((await spansReceived()) - receivedBefore) / pairs;
  console.log(
    `N=${N}: untraced ${(median(plain) / (N + 2)).toFixed(3)} ms CPU/step, traced ${(median(traced) / (N + 2)).toFixed(3)} ms CPU/step (${spansPerRun.toFixed(0)} spans exported per run, ${pairs} pairs), tracing adds ${added.toFixed(2)} ms a run, ratio ${ratio.toFixed(3)}x (middle half ${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)}) (target <= 1.05x) ${ratio <= 1.05 ? 'OK' : 'MISSED'}`,
  );
}
const sizes = [...perRun.keys()].sort((a, b) => a - b);
if (sizes.length >= 2) {
  const [small, large] = [sizes[0], sizes[sizes.length - 1]];
  const slope = (side) => (perRun.get(large)[side] - perRun.get(small)[side]) / (large - small);
  const ratio = 1 + slope('added') / slope('off');
  console.log(
    `per step (slope N=${small}→${large}): untraced ${slope('off').toFixed(3)} ms CPU, tracing adds ${(slope('added') * 1000).toFixed(1)} µs CPU, ratio ${ratio.toFixed(3)}x (target <= 1.05x) ${ratio <= 1.05 ? 'OK' : 'MISSED'}`,
  );
}
await shared.shutdown();
child.kill();
