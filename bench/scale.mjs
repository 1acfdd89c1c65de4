// Runs on PostgreSQL with workers (`attractor serve --store`, `attractor worker --store`) on a throwaway
// cluster: one server, RUNS dry-run pipelines of NODES nodes submitted at once, one SSE subscriber each,
// executed by one worker process and then (on a fresh database) by two. Reports runs/s of each and their
// ratio, p95 event latency (the event's engine timestamp on the worker to its arrival at the SSE client
// through the database and the server), and the time from a worker's SIGKILL to its run continuing on
// another (the run's `pipeline.resume` event), with the lease set to LEASE_SECONDS (default 5).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startPostgresCluster } from './lib/postgres-cluster.mjs';
import { subscribeEvents as subscribe } from './lib/subscribe-events.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const NODES = 20;
const CONCURRENCY = 8;
const LEASE_SECONDS = Number(process.env.LEASE_SECONDS ?? 5);

const chain = Array.from({ length: NODES }, (_, i) => `n${i}`);
const DOT = `digraph scale {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  ${chain.map((n) => `${n} [prompt="step ${n}"]`).join('\n  ')}
  start -> ${chain.join(' -> ')} -> exit
}`;
const FAILOVER_DOT = `digraph failover {
  start [shape=Mdiamond]
  one [shape=parallelogram, tool_command="true"]
  two [shape=parallelogram, tool_command="sleep 15"]
  exit [shape=Msquare]
  start -> one -> two -> exit
}`;

const children = new Set();
const temp = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'attractor-bench-scale-'));
  temp.push(dir);
  return dir;
};

function spawnAttractor(args, ready) {
  const child = spawn(process.execPath, [path.join(root, 'bin/attractor.js'), ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (c) => {
      err += c;
      const m = ready.exec(err);
      if (m) resolve({ child, match: m });
    });
    child.on('exit', (code) => reject(new Error(`attractor ${args[0]} exited (${code}): ${err}`)));
  });
}

const startServer = (url) =>
  spawnAttractor(
    ['serve', '--port', '0', '--store', url, '--data-dir', tempDir(), '--allow-tools'],
    /listening on (\S+)/,
  ).then(({ child, match }) => ({ child, url: match[1] }));

const startWorker = (url, lease = 30) =>
  spawnAttractor(
    [
      'worker',
      '--store',
      url,
      '--data-dir',
      tempDir(),
      '--concurrency',
      String(CONCURRENCY),
      '--lease-seconds',
      String(lease),
      '--allow-tools',
    ],
    /executing runs/,
  ).then(({ child }) => child);

const post = (url, body) =>
  fetch(`${url}/pipelines`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.json());

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** The worker processes keep their own leases (jobs): this many have started on the database. */
async function workersReady(url, n) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client
        .query(
          `SELECT count(*) AS n FROM graphile_worker._private_jobs j
           JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'attractor_worker_alive'`,
        )
        .catch(() => ({ rows: [{ n: 0 }] }));
      if (Number(rows[0].n) >= n) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await client.end();
  }
}

async function throughput(cluster, workers) {
  const url = await cluster.createDatabase(`scale_${workers}`);
  const server = await startServer(url);
  const procs = [];
  for (let i = 0; i < workers; i++) procs.push(await startWorker(url));
  await workersReady(url, workers);
  const latencies = [];
  const t0 = performance.now();
  const ids = await Promise.all(
    Array.from({ length: RUNS }, () =>
      post(server.url, { dot_source: DOT, dry_run: true }).then((r) => r.id),
    ),
  );
  const statuses = await Promise.all(
    ids.map((id) =>
      subscribe(`${server.url}/pipelines/${id}/events`, (event, at) =>
        latencies.push(at - Date.parse(event.timestamp)),
      ),
    ),
  );
  const seconds = (performance.now() - t0) / 1000;
  for (const child of [server.child, ...procs]) child.kill('SIGTERM');
  latencies.sort((a, b) => a - b);
  const completed = statuses.filter((s) => s === 'completed').length;
  return { runsPerSecond: RUNS / seconds, seconds, latencies, completed };
}

async function failover(cluster) {
  const url = await cluster.createDatabase('scale_failover');
  const server = await startServer(url);
  const doomed = await startWorker(url, LEASE_SECONDS);
  await workersReady(url, 1);
  const { id } = await post(server.url, { dot_source: FAILOVER_DOT, scenario: {} });
  let killedAt;
  let continuedAt;
  let survivor;
  const status = await subscribe(`${server.url}/pipelines/${id}/events`, (event) => {
    if (event.kind === 'node.start' && event.node_id === 'two' && killedAt === undefined) {
      killedAt = -1;
      // The other worker is up before the kill: the time measured is the lease's, not a start-up.
      void startWorker(url, LEASE_SECONDS)
        .then(async (child) => {
          survivor = child;
          await workersReady(url, 2);
          doomed.kill('SIGKILL');
          killedAt = Date.now();
        })
        .catch((error) => console.error(error));
    }
    if (event.kind === 'pipeline.resume' && continuedAt === undefined)
      continuedAt = Date.parse(event.timestamp);
  });
  for (const child of [server.child, survivor]) child?.kill('SIGTERM');
  return { status, seconds: (continuedAt - killedAt) / 1000 };
}

const cluster = await startPostgresCluster();
try {
  const one = await throughput(cluster, 1);
  const two = await throughput(cluster, 2);
  for (const [label, r] of [
    ['1 worker ', one],
    ['2 workers', two],
  ]) {
    console.log(
      `${label}: ${RUNS} runs x ${NODES} nodes: ${r.runsPerSecond.toFixed(2)} runs/s (${r.seconds.toFixed(1)} s, ${r.completed} completed); event latency engine -> SSE p50 ${percentile(r.latencies, 50)} ms, p95 ${percentile(r.latencies, 95)} ms (${r.latencies.length} events)`,
    );
  }
  console.log(`2 workers / 1 worker: ${(two.runsPerSecond / one.runsPerSecond).toFixed(2)}x`);
  const f = await failover(cluster);
  console.log(
    `failover: SIGKILL of the executing worker -> its run continues on the other: ${f.seconds.toFixed(2)} s (lease ${LEASE_SECONDS} s; the run ended ${f.status})`,
  );
  console.log(
    `load average: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (${os.cpus().length} cores)`,
  );
} finally {
  for (const child of children) child.kill('SIGKILL');
  await cluster.stop();
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
}
