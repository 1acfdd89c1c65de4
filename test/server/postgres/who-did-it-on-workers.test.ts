/**
 * Runs on workers: who answered and cancelled them is recorded wherever the run executes, and each
 * worker logs one line per run it takes, releases or ends (`attractor worker --json`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../../helpers/ensure-dist.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { closeServers, readSse, type TestServer, testServer, waitFor } from '../server-fixtures.js';

const cluster = postgresClusterForFile(180_000);
const TOKEN = 's3cret';
const auth = { authorization: `Bearer ${TOKEN}` };

const GATE = `digraph g {
  start [shape=Mdiamond]
  gate [shape=hexagon, label="Go?"]
  exit [shape=Msquare]
  start -> gate
  gate -> exit [label="[Y] Yes"]
}`;

let worker: ChildProcess | undefined;
afterEach(async () => {
  worker?.kill('SIGKILL');
  worker = undefined;
  await closeServers();
});

/** `attractor worker --json` as its own process; its stdout's lines, parsed, as they come. */
function jsonWorker(url: string, dataDir: string): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = [];
  worker = spawn(
    process.execPath,
    [BIN, 'worker', '--store', url, '--data-dir', dataDir, '--allow-tools', '--unsandboxed', '--json'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let buffer = '';
  worker.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    const whole = buffer.split('\n');
    buffer = whole.pop() ?? '';
    for (const line of whole) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return lines;
}

async function view(server: TestServer, id: string, statuses: string[]) {
  return waitFor(
    async () => {
      const { body } = await server.json('GET', `/pipelines/${id}`, undefined, auth);
      return statuses.includes(body.status) ? body : undefined;
    },
    `run ${id} to be ${statuses.join(' or ')}`,
    30_000,
  );
}

async function eventOf(server: TestServer, id: string, kind: string) {
  const messages = await readSse(`${server.url}/pipelines/${id}/events`, {
    headers: auth,
    until: (m) => m.data['kind'] === kind,
  });
  return messages.find((m) => m.data['kind'] === kind)?.data['data'];
}

const of = (lines: Array<Record<string, unknown>>, id: string) =>
  lines
    .filter((l) => l['run_id'] === id)
    .map(({ at, ...rest }) => (typeof at === 'string' ? rest : { at, ...rest }));

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('who did it, on runs executed by workers', () => {
  beforeAll(() => {
    ensureDist();
  }, 180_000);

  it('records who answered and who cancelled; the worker logs each run it took, released and ended', async () => {
    const url = await cluster.createDatabase('whodidit');
    const server = await testServer({ store: url, token: TOKEN, allowTools: true });
    const log = jsonWorker(url, tempDir());

    const { body: gated } = await server.json('POST', '/pipelines', { dot_source: GATE, scenario: {} }, auth);
    expect(gated.started_by).toBe('token');
    const question = await waitFor(
      async () => (await server.json('GET', `/pipelines/${gated.id}/questions`, undefined, auth)).body[0]?.id,
      'the question',
      30_000,
    );
    const answered = await server.json(
      'POST',
      `/pipelines/${gated.id}/questions/${question}/answer`,
      { answer: 'Y' },
      auth,
    );
    expect(answered.status).toBe(200);
    expect(await view(server, gated.id, ['completed'])).toMatchObject({ started_by: 'token' });
    expect(await eventOf(server, gated.id, 'interview.complete')).toMatchObject({
      key: 'Y',
      answered_by: 'token',
    });

    const dir = tempDir();
    const started = path.join(dir, 'started');
    const looping = `digraph c {
      sandbox="off"
      start [shape=Mdiamond]
      work [shape=parallelogram, tool_command="touch ${started}; sleep 30"]
      exit [shape=Msquare]
      start -> work -> exit
    }`;
    const { body: long } = await server.json(
      'POST',
      '/pipelines',
      { dot_source: looping, scenario: {} },
      auth,
    );
    await view(server, long.id, ['running']);
    await waitFor(() => (existsSync(started) ? true : undefined), 'the work to start', 20_000);
    expect((await server.json('POST', `/pipelines/${long.id}/cancel`, {}, auth)).status).toBe(200);
    expect(await view(server, long.id, ['cancelled'])).toMatchObject({ cancelled_by: 'token' });
    expect(await eventOf(server, long.id, 'pipeline.cancelled')).toMatchObject({ cancelled_by: 'token' });

    const broken = `digraph f {
      start [shape=Mdiamond]
      work [prompt="Work"]
      exit [shape=Msquare]
      start -> work -> exit
    }`;
    const { body: bad } = await server.json(
      'POST',
      '/pipelines',
      { dot_source: broken, scenario: { nodes: { work: [{ outcome: 'fail', failure_reason: 'no luck' }] } } },
      auth,
    );
    await view(server, bad.id, ['failed']);

    await waitFor(
      () => (of(log, bad.id).length >= 2 ? true : undefined),
      'the log of the failed run',
      10_000,
    );
    expect(of(log, gated.id)).toEqual([
      { event: 'took', run_id: gated.id, attempt: 1 },
      { event: 'released', run_id: gated.id },
      { event: 'took', run_id: gated.id, attempt: 2 },
      { event: 'finished', run_id: gated.id, status: 'completed' },
    ]);
    expect(of(log, long.id)).toEqual([
      { event: 'took', run_id: long.id, attempt: 1 },
      { event: 'finished', run_id: long.id, status: 'cancelled' },
    ]);
    expect(of(log, bad.id)).toEqual([
      { event: 'took', run_id: bad.id, attempt: 1 },
      { event: 'failed', run_id: bad.id, reason: expect.stringMatching(/no luck/) },
    ]);
  }, 120_000);
});
