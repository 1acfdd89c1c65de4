// A signed-in person's request: 1,000 sequential `GET /whoami` with a session cookie against 1,000
// `GET /healthz` (no auth) on the same server, interleaved rounds, on the file store and on PostgreSQL
// (sessions.json or attractor.sessions, decision 0500). The session is opened in the store beforehand,
// as a sign-in would; the issuer is never contacted. BENCH_RUNS=N rounds (default 5).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSessionStore } from '../dist/server/auth/open-session-store.js';
import { Sessions } from '../dist/server/auth/sessions.js';
import { startServer } from '../dist/server/start-server.js';
import { postgresBin, startPostgresCluster } from './lib/postgres-cluster.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const REQUESTS = 1_000;

async function perRequestMs(url, headers) {
  const started = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const response = await fetch(url, { headers });
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    await response.arrayBuffer();
  }
  return (performance.now() - started) / REQUESTS;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(name, where) {
  mkdirSync(where.dataDir, { recursive: true });
  const secretFile = path.join(where.dataDir, 'client-secret');
  writeFileSync(secretFile, 'unused\n');
  const store = await openSessionStore(where);
  const id = await new Sessions(store).open({
    subject: 'alice',
    email: 'alice@example.com',
    groups: ['ops'],
  });
  await store.close();
  const server = await startServer({
    port: 0,
    ...where,
    oidcIssuer: 'http://127.0.0.1:9',
    oidcClientId: 'bench',
    oidcClientSecretFile: secretFile,
  });
  const cookie = { cookie: `attractor_session=${id}` };
  const floor = [];
  const session = [];
  try {
    await perRequestMs(`${server.url}/whoami`, cookie); // warm-up
    for (let run = 0; run < RUNS; run++) {
      floor.push(await perRequestMs(`${server.url}/healthz`, {}));
      session.push(await perRequestMs(`${server.url}/whoami`, cookie));
    }
  } finally {
    await server.close();
  }
  const added = median(session) - median(floor);
  console.log(
    `${name}: /whoami with a session ${median(session).toFixed(3)} ms/request, /healthz ${median(floor).toFixed(3)} ms (+${added.toFixed(3)} ms), load ${os.loadavg()[0].toFixed(1)}`,
  );
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-session-'));
try {
  await measure('file store', { dataDir: path.join(dir, 'file') });
  if (postgresBin()) {
    const cluster = await startPostgresCluster();
    try {
      const store = await cluster.createDatabase('session_lookup');
      await measure('PostgreSQL', { dataDir: path.join(dir, 'pg'), store });
    } finally {
      await cluster.stop();
    }
  } else console.log('PostgreSQL: not installed, skipped');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
