/**
 * A dry run whose manager loop names its own file as its child, sent to a server with PostgreSQL: the
 * worker that takes it fails the run at the manager, naming `stack.max_depth`, and goes on working.
 * (It used to nest until a child checkpoint's path was too long, whose error ended the worker; the run
 * stayed `running` and ended each worker that took it over.)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../../helpers/ensure-dist.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { closeServers, testServer, waitFor } from '../server-fixtures.js';

const cluster = postgresClusterForFile(180_000);
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
  await closeServers();
});

const SELF = `digraph self {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  m [shape=house, stack.child_dotfile="self.dot", manager.poll_interval="10ms"]
  start -> m -> exit
}
`;

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('a self-nesting manager loop on a worker', () => {
  beforeAll(() => {
    ensureDist();
  }, 180_000);

  it('fails its run, and the worker lives on', async () => {
    const url = await cluster.createDatabase('self_nesting');
    const pipelines = tempDir();
    fs.writeFileSync(path.join(pipelines, 'self.dot'), SELF);
    const server = await testServer({ store: url, allowDirs: [pipelines] });
    const worker = spawn(
      process.execPath,
      [BIN, 'worker', '--store', url, '--data-dir', tempDir(), '--allow-dir', pipelines],
      { cwd: tempDir(), env: process.env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    children.push(worker);
    const { status, body } = await server.json('POST', '/pipelines', { dot_path: 'self.dot', dry_run: true });
    expect(status).toBe(201);
    const done = await waitFor(
      async () => {
        const run = (await server.json('GET', `/pipelines/${body.id}`)).body;
        return ['completed', 'failed'].includes(run.status) ? run : undefined;
      },
      'the run to end on the worker',
      30_000,
    );
    expect(done.status).toBe('failed');
    expect(JSON.stringify(done)).toContain('stack.max_depth');
    expect(worker.exitCode).toBeNull();
  }, 60_000);
});
