import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../../helpers/ensure-dist.js';
import {
  agentWritesFile,
  FAKE_ANTHROPIC_KEY,
  startFakeAnthropicServer,
} from '../../helpers/fake-anthropic-server.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { closeServers, type TestServer, testServer, waitFor } from '../server-fixtures.js';

const cluster = postgresClusterForFile(180_000);
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
  await closeServers();
});

/** A tool node that prints where it works (and leaves `marker` there, when given). */
const PWD = (marker?: string) =>
  `digraph w { start [shape=Mdiamond]; where [shape=parallelogram, tool_command="pwd${marker ? ` && touch ${marker}` : ''}"]; exit [shape=Msquare]; start -> where -> exit }`;

/** `attractor worker` as a user starts it, in a folder of its own (which its runs no longer work in). */
function startWorker(url: string, dataDir: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}): void {
  const child = spawn(
    process.execPath,
    [BIN, 'worker', '--store', url, '--data-dir', dataDir, '--allow-tools', ...extra],
    { cwd: tempDir(), env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(child);
}

async function ended(server: TestServer, id: string) {
  return waitFor(
    async () => {
      const { body } = await server.json('GET', `/pipelines/${id}`);
      return ['completed', 'failed'].includes(body.status) ? body : undefined;
    },
    'the run to end on the worker',
    30_000,
  );
}

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('where work happens on a worker', () => {
  beforeAll(() => {
    ensureDist();
  }, 180_000);

  it("runs tool commands in the run's own folder, <data-dir>/runs/<id>/work, beside its run directory", async () => {
    const url = await cluster.createDatabase('where_default');
    const server = await testServer({ store: url, allowTools: true });
    const dataDir = tempDir();
    startWorker(url, dataDir);
    const { body: run } = await server.json('POST', '/pipelines', { dot_source: PWD(), scenario: {} });
    const done = await ended(server, run.id);
    expect(done.status).toBe('completed');
    const runFolder = path.join(realpathSync(dataDir), 'runs', run.id);
    expect(done.run_dir).toBe(path.join(runFolder, 'run'));
    expect(readFileSync(path.join(done.run_dir, 'where', 'stdout.log'), 'utf8').trim()).toBe(
      path.join(runFolder, 'work'),
    );
  }, 60_000);

  it('runs a submission that names a folder inside --allow-workdir there, and refuses one outside (a symlink too) without running it', async () => {
    const url = await cluster.createDatabase('where_named');
    const server = await testServer({ store: url, allowTools: true });
    const root = realpathSync(tempDir());
    const outside = realpathSync(tempDir());
    mkdirSync(path.join(root, 'checkout'));
    symlinkSync(outside, path.join(root, 'escape'));
    startWorker(url, tempDir(), ['--allow-workdir', root]);

    const { body: named } = await server.json('POST', '/pipelines', {
      dot_source: PWD(),
      scenario: {},
      working_dir: path.join(root, 'checkout'),
    });
    const done = await ended(server, named.id);
    expect(done.status).toBe('completed');
    expect(readFileSync(path.join(done.run_dir, 'where', 'stdout.log'), 'utf8').trim()).toBe(
      path.join(root, 'checkout'),
    );

    for (const [dir, why] of [
      [outside, 'is outside every --allow-workdir folder'],
      [path.join(root, 'escape'), 'leads (through a symlink) outside every --allow-workdir folder'],
    ] as const) {
      // The server cannot know the workers' folders: it takes the run, and the worker refuses it.
      const marker = path.join(outside, 'ran');
      const { status, body: run } = await server.json('POST', '/pipelines', {
        dot_source: PWD(marker),
        scenario: {},
        working_dir: dir,
      });
      expect(status).toBe(201);
      const failed = await ended(server, run.id);
      expect(failed.status).toBe('failed');
      expect(failed.failure.code).toBe('WORKDIR_NOT_ALLOWED');
      expect(failed.failure.reason).toBe(
        `working_dir "${dir}" ${why}: this worker runs a pipeline only in its own folder for the run or inside a folder it was started with --allow-workdir; the run was not started.`,
      );
      expect(failed.event_count).toBe(0);
      expect(existsSync(marker)).toBe(false);
    }
  }, 90_000);

  it("has a real run's agent work in the run's own folder: its files land there", async () => {
    const url = await cluster.createDatabase('where_agent');
    const model = await startFakeAnthropicServer();
    try {
      model.enqueue(...agentWritesFile('hello.txt', 'hi\n'));
      // The server executes nothing: it only needs to know real runs are taken.
      const server = await testServer(
        { store: url, allowTools: true },
        { realRuns: { workingDir: tempDir(), env: {} } },
      );
      const dataDir = tempDir();
      startWorker(url, dataDir, [], {
        ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
        ANTHROPIC_BASE_URL: model.origin,
      });
      const { status, body: run } = await server.json('POST', '/pipelines', {
        dot_source:
          'digraph a { start [shape=Mdiamond]; write [prompt="Create hello.txt", llm_model="claude-sonnet-4-6"]; exit [shape=Msquare]; start -> write -> exit }',
      });
      expect(status).toBe(201);
      const done = await ended(server, run.id);
      expect(done.status, JSON.stringify(done.failure)).toBe('completed');
      expect(
        readFileSync(path.join(realpathSync(dataDir), 'runs', run.id, 'work', 'hello.txt'), 'utf8'),
      ).toBe('hi\n');
    } finally {
      await model.close();
    }
  }, 60_000);
});
