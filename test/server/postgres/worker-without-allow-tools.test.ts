import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../../../src/worker/start-worker.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { closeServers, testServer, waitFor } from '../server-fixtures.js';

const cluster = postgresClusterForFile();
const workers: RunningWorker[] = [];

afterEach(async () => {
  await closeServers();
  for (const worker of workers.splice(0)) await worker.drain(1_000);
});

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('a worker started without --allow-tools', () => {
  it('fails a run with a tool node that a server with the flag accepted, naming the flag; the command never runs', async () => {
    const url = await cluster.createDatabase('workertools');
    const marker = path.join(tempDir(), 'ran');
    const server = await testServer({ store: url, allowTools: true });
    const worker = await startWorker({ store: url, dataDir: tempDir(), concurrency: 1, allowTools: false });
    workers.push(worker);
    const dot = `digraph t { start [shape=Mdiamond]; work [shape=parallelogram, tool_command="touch ${marker}"]; exit [shape=Msquare]; start -> work -> exit }`;
    const { status, body: run } = await server.json('POST', '/pipelines', { dot_source: dot, scenario: {} });
    expect(status).toBe(201);
    const done = await waitFor(
      async () => {
        const { body } = await server.json('GET', `/pipelines/${run.id}`);
        return ['completed', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
      },
      'the run to end on the worker',
      20_000,
    );
    expect(done.status).toBe('failed');
    expect(done.failure.code).toBe('TOOLS_NOT_ALLOWED');
    expect(done.failure.reason).toContain('work (tool node)');
    expect(done.failure.reason).toContain('this worker');
    expect(done.failure.reason).toMatch(/--allow-tools/);
    expect(existsSync(marker)).toBe(false);
  }, 60_000);

  it('still executes a dry run of it (a dry run executes no command)', async () => {
    const url = await cluster.createDatabase('workerdry');
    const marker = path.join(tempDir(), 'ran');
    const server = await testServer({ store: url, allowTools: true });
    const worker = await startWorker({ store: url, dataDir: tempDir(), concurrency: 1, allowTools: false });
    workers.push(worker);
    const dot = `digraph t { start [shape=Mdiamond]; work [shape=parallelogram, tool_command="touch ${marker}"]; exit [shape=Msquare]; start -> work -> exit }`;
    const { body: run } = await server.json('POST', '/pipelines', { dot_source: dot, dry_run: true });
    const done = await waitFor(
      async () => {
        const { body } = await server.json('GET', `/pipelines/${run.id}`);
        return ['completed', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
      },
      'the run to end on the worker',
      20_000,
    );
    expect(done.status).toBe('completed');
    expect(existsSync(marker)).toBe(false);
  }, 60_000);
});
