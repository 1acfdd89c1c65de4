import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../../helpers/ensure-dist.js';
import {
  PG_AVAILABLE,
  PG_REQUIRED,
  type PostgresCluster,
  startPostgresCluster,
} from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { closeServers, testServer, waitFor } from '../server-fixtures.js';

let cluster: PostgresCluster | undefined;
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
  await closeServers();
});

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('where work happens on a worker', () => {
  beforeAll(async () => {
    expect(PG_AVAILABLE, 'PostgreSQL is not installed (ATTRACTOR_PG_TESTS=required)').toBe(true);
    ensureDist();
    cluster = await startPostgresCluster();
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it("keeps the run's files under <data-dir>/runs/<id>/run and runs tool commands in the worker's working directory", async () => {
    if (!cluster) throw new Error('no cluster');
    const url = await cluster.createDatabase('where');
    const server = await testServer({ store: url, allowTools: true });
    const dataDir = tempDir();
    const workDir = tempDir();
    // `attractor worker` as a user starts it: in the folder its runs' commands work in.
    const child = spawn(
      process.execPath,
      [BIN, 'worker', '--store', url, '--data-dir', dataDir, '--allow-tools'],
      { cwd: workDir, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    children.push(child);
    const { body: run } = await server.json('POST', '/pipelines', {
      dot_source:
        'digraph w { start [shape=Mdiamond]; where [shape=parallelogram, tool_command="pwd"]; exit [shape=Msquare]; start -> where -> exit }',
      scenario: {},
    });
    const done = await waitFor(
      async () => {
        const { body } = await server.json('GET', `/pipelines/${run.id}`);
        return body.status === 'completed' ? body : undefined;
      },
      'the run to complete on the worker',
      30_000,
    );
    expect(done.run_dir).toBe(path.join(realpathSync(dataDir), 'runs', run.id, 'run'));
    expect(readFileSync(path.join(done.run_dir, 'where', 'stdout.log'), 'utf8').trim()).toBe(
      realpathSync(workDir),
    );
  }, 60_000);
});
