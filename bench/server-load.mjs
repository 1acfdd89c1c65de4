// `attractor serve` under load: 50 concurrent dry-run pipelines of 20 nodes submitted through the HTTP
// API, 5 SSE subscribers each. Reports runs/s, p50/p95 event latency (the event's engine timestamp to
// its arrival at an SSE client; all deliveries, and the live ones: events that happened after their
// subscriber connected, the others being replays), the server's peak RSS; then one run's wall time through the server
// against the same run through the library in this process (target <= 1.3x).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { subscribeEvents as subscribe } from './lib/subscribe-events.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 50;
const SUBSCRIBERS = 5;
const NODES = 20;

const chain = Array.from({ length: NODES }, (_, i) => `n${i}`);
const DOT = `digraph load {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  ${chain.map((n) => `${n} [prompt="step ${n}"]`).join('\n  ')}
  start -> ${chain.join(' -> ')} -> exit
}`;

function startServer(dataDir) {
  const child = spawn(
    process.execPath,
    [
      path.join(root, 'bin/attractor.js'),
      'serve',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--max-concurrent-runs',
      String(RUNS),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (c) => {
      err += c;
      const m = /listening on (\S+)/.exec(err);
      if (m) resolve({ child, url: m[1] });
    });
    child.on('exit', () => reject(new Error(err)));
  });
}

const post = (url, body) =>
  fetch(`${url}/pipelines`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.json());

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'attractor-bench-serve-'));
const { child, url } = await startServer(dataDir);
try {
  // Load: 50 runs at once, 5 subscribers each.
  const latencies = [];
  const live = [];
  const t0 = performance.now();
  const ids = await Promise.all(
    Array.from({ length: RUNS }, () => post(url, { dot_source: DOT, dry_run: true }).then((r) => r.id)),
  );
  await Promise.all(
    ids.flatMap((id) =>
      Array.from({ length: SUBSCRIBERS }, () =>
        subscribe(`${url}/pipelines/${id}/events`, (event, at, connectedAt) => {
          const happened = Date.parse(event.timestamp);
          latencies.push(at - happened);
          if (happened >= connectedAt) live.push(at - happened);
        }),
      ),
    ),
  );
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const peakRss = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  console.log(
    `${RUNS} runs x ${NODES} nodes, ${SUBSCRIBERS} SSE subscribers each: ${(RUNS / seconds).toFixed(1)} runs/s (${seconds.toFixed(2)} s)`,
  );
  console.log(
    `event latency engine -> SSE client: p50 ${percentile(latencies, 50)} ms, p95 ${percentile(latencies, 95)} ms (${latencies.length} deliveries)`,
  );
  live.sort((a, b) => a - b);
  console.log(
    `  of which live (the event happened after its subscriber connected): p50 ${percentile(live, 50)} ms, p95 ${percentile(live, 95)} ms (${live.length} deliveries; target p95 <= 100 ms)`,
  );
  console.log(`server peak RSS: ${peakRss.toFixed(0)} MB`);

  // One run: through the server (POST to the done message) vs the library in this process.
  const { startPipeline } = await import(path.join(root, 'dist/run/engine.js'));
  const { withDryRunHandlers } = await import(path.join(root, 'dist/actors/simulated/dry-run-handlers.js'));
  const { createDefaultRegistry } = await import(path.join(root, 'dist/actors/registry.js'));
  const { createSimulatedBackend } = await import(
    path.join(root, 'dist/actors/simulated/simulated-backend.js')
  );
  const { AutoApproveInterviewer } = await import(
    path.join(root, 'dist/actors/interviewers/auto-approve.js')
  );
  const viaServer = [];
  const viaLibrary = [];
  for (let i = 0; i < 7; i++) {
    const s = performance.now();
    const { id } = await post(url, { dot_source: DOT, dry_run: true });
    await subscribe(`${url}/pipelines/${id}/events`, () => {});
    viaServer.push(performance.now() - s);
    const l = performance.now();
    await startPipeline({
      source: DOT,
      runsRoot: path.join(dataDir, 'library'),
      registry: withDryRunHandlers(createDefaultRegistry()),
      backend: createSimulatedBackend(),
      interviewer: new AutoApproveInterviewer(),
    }).result;
    viaLibrary.push(performance.now() - l);
  }
  const ratio = median(viaServer) / median(viaLibrary);
  console.log(
    `one run: server ${median(viaServer).toFixed(1)} ms vs library ${median(viaLibrary).toFixed(1)} ms = ${ratio.toFixed(2)}x (target <= 1.3x) ${ratio <= 1.3 ? 'OK' : 'MISSED'}`,
  );
} finally {
  child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
}
