import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
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
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await closeServers();
});

/** `attractor worker` as its own process (a machine of its own: its own `--data-dir`). */
function worker(
  url: string,
  dataDir: string,
  options: { lease?: number; more?: string[]; env?: NodeJS.ProcessEnv } = {},
): ChildProcess {
  const args = ['worker', '--store', url, '--data-dir', dataDir, '--allow-tools'];
  args.push('--lease-seconds', String(options.lease ?? 30), ...(options.more ?? []));
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: tempDir(),
    env: { ...process.env, ...options.env },
    stdio: 'ignore',
  });
  children.push(child);
  return child;
}

/** SIGTERM a worker and wait for it to have drained and exited. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A pipeline whose first node leaves hello.txt, then a human gate, then a node that reads it. */
const HELLO = (write: string, name = 'hello') => `digraph ${name} {
  start [shape=Mdiamond]
  ${write}
  review [shape=hexagon, label="Go on?"]
  after [shape=parallelogram, tool_command="cat hello.txt"]
  exit [shape=Msquare]
  start -> write -> review
  review -> after [label="[G] Go"]
  after -> exit
}`;

async function pendingQuestion(server: TestServer, id: string): Promise<{ id: string }> {
  return waitFor(
    async () => {
      const { body: record } = await server.json('GET', `/pipelines/${id}`);
      const { body: questions } = await server.json('GET', `/pipelines/${id}/questions`);
      return record.status === 'waiting' && questions.length === 1 ? questions[0] : undefined;
    },
    `run ${id} to wait at its gate`,
    60_000,
  );
}

async function ended(server: TestServer, id: string, ms = 60_000) {
  return waitFor(
    async () => {
      const { body } = await server.json('GET', `/pipelines/${id}`);
      return ['completed', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
    },
    `run ${id} to end`,
    ms,
  );
}

/** A stage's file in a machine's copy of the run. */
const stageFile = (machine: string, id: string, node: string, file: string) =>
  path.join(machine, 'runs', id, 'run', node, file);

describe.runIf(PG_AVAILABLE || PG_REQUIRED)("the run's working tree travels with it", () => {
  beforeAll(() => {
    ensureDist();
  }, 180_000);

  it('a file written before a gate is there when the answer continues the run on the other worker: 20 runs of 20', async () => {
    const url = await cluster.createDatabase('travel_twenty');
    const server = await testServer({ store: url, allowTools: true });
    const machineA = realpathSync(tempDir());
    const machineB = realpathSync(tempDir());
    const onA = worker(url, machineA, { more: ['--concurrency', '4'] });
    const runs: { id: string; n: number }[] = [];
    for (let n = 1; n <= 20; n++) {
      const dot = HELLO(`write [shape=parallelogram, tool_command="printf 'hello ${n}' > hello.txt"]`);
      const { status, body } = await server.json('POST', '/pipelines', { dot_source: dot, scenario: {} });
      expect(status).toBe(201);
      runs.push({ id: body.id, n });
    }
    const questions = new Map<string, string>();
    for (const { id } of runs) questions.set(id, (await pendingQuestion(server, id)).id);
    // Machine A is gone; machine B answers for all of them.
    await stop(onA);
    worker(url, machineB, { more: ['--concurrency', '4'] });
    for (const { id } of runs)
      await server.json('POST', `/pipelines/${id}/questions/${questions.get(id)}/answer`, { answer: 'G' });
    for (const { id, n } of runs) {
      const done = await ended(server, id);
      expect(done.status, JSON.stringify(done.failure)).toBe('completed');
      // `write` ran on A only, `after` on B only, and B read what A wrote.
      expect(existsSync(stageFile(machineA, id, 'write', 'stdout.log'))).toBe(true);
      expect(existsSync(stageFile(machineA, id, 'after', 'stdout.log'))).toBe(false);
      expect(readFileSync(stageFile(machineB, id, 'after', 'stdout.log'), 'utf8')).toBe(`hello ${n}`);
      expect(readFileSync(path.join(machineB, 'runs', id, 'work', 'hello.txt'), 'utf8')).toBe(`hello ${n}`);
    }
  }, 240_000);

  it('a worker SIGKILLed after two file-writing nodes: the run continues on the other with both files', async () => {
    const url = await cluster.createDatabase('travel_killed');
    const server = await testServer({ store: url, allowTools: true });
    const machineA = realpathSync(tempDir());
    const machineB = realpathSync(tempDir());
    // `hold` waits on machine A only (its folder is under A's data folder) until the test lets it go.
    const release = path.join(tempDir(), 'release');
    const dot = `digraph killed {
      start [shape=Mdiamond]
      one [shape=parallelogram, tool_command="echo one > one.txt"]
      two [shape=parallelogram, tool_command="echo two > two.txt"]
      hold [shape=parallelogram, tool_command="if pwd | grep -q ${machineA}; then while [ ! -e ${release} ]; do sleep 0.2; done; fi"]
      check [shape=parallelogram, tool_command="cat one.txt two.txt"]
      exit [shape=Msquare]
      start -> one -> two -> hold -> check -> exit
    }`;
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const doomed = worker(url, machineA, { lease: 2 });
      const { body: run } = await server.json('POST', '/pipelines', { dot_source: dot, scenario: {} });
      await waitFor(
        async () => {
          const { rows } = await db.query<{ done: string[] }>(
            "SELECT checkpoint->'completed_nodes' AS done FROM attractor.checkpoints WHERE run_id = $1",
            [run.id],
          );
          return rows[0]?.done.includes('two') && existsSync(stageFile(machineA, run.id, 'hold', ''))
            ? true
            : undefined;
        },
        'the checkpoint after node two in the database, and hold under way on A',
        30_000,
      );
      doomed.kill('SIGKILL');
      worker(url, machineB, { lease: 2 });
      const done = await ended(server, run.id);
      expect(done.status, JSON.stringify(done.failure)).toBe('completed');
      expect(existsSync(stageFile(machineA, run.id, 'check', 'stdout.log'))).toBe(false);
      expect(readFileSync(stageFile(machineB, run.id, 'check', 'stdout.log'), 'utf8')).toBe('one\ntwo\n');
    } finally {
      // The dead worker's `hold` is still waiting: let it go.
      writeFileSync(release, '');
      await db.end();
    }
  }, 120_000);

  it('a fork made through the server starts at its node on a worker that never ran the original, with the files as the node found them', async () => {
    const url = await cluster.createDatabase('travel_fork');
    const server = await testServer({ store: url, allowTools: true });
    const dot = `digraph forked {
      start [shape=Mdiamond]
      one [shape=parallelogram, tool_command="echo one > one.txt"]
      two [shape=parallelogram, tool_command="test -e one.txt && rm one.txt && echo two > two.txt"]
      exit [shape=Msquare]
      start -> one -> two -> exit
    }`;
    const a = worker(url, realpathSync(tempDir()));
    const { body: run } = await server.json('POST', '/pipelines', { dot_source: dot, scenario: {} });
    expect((await ended(server, run.id)).status).toBe('completed');
    await stop(a);
    const machineB = realpathSync(tempDir());
    worker(url, machineB);
    // `two` removed one.txt in the original; the fork from `two` finds it again, or `test -e` fails it.
    const forked = await server.json('POST', `/pipelines/${run.id}/fork`, { from_node: 'two' });
    expect(forked.status).toBe(201);
    const done = await ended(server, forked.body.id);
    expect(done.status, JSON.stringify(done.failure)).toBe('completed');
    // It started at `two` on B: `one` never ran there.
    expect(existsSync(stageFile(machineB, forked.body.id, 'two', 'status.json'))).toBe(true);
    expect(existsSync(stageFile(machineB, forked.body.id, 'one', 'status.json'))).toBe(false);
  }, 120_000);

  it("an agent's file crosses the gate, and a server that executed nothing shows the node's prompt, response, output and diff", async () => {
    const url = await cluster.createDatabase('travel_agent');
    const model = await startFakeAnthropicServer();
    try {
      model.enqueue(...agentWritesFile('hello.txt', 'hi\n'));
      const server = await testServer(
        { store: url, allowTools: true },
        { realRuns: { workingDir: tempDir(), env: {} } },
      );
      const env = { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY, ANTHROPIC_BASE_URL: model.origin };
      const machineA = realpathSync(tempDir());
      const machineB = realpathSync(tempDir());
      const onA = worker(url, machineA, { env });
      const { body: run } = await server.json('POST', '/pipelines', {
        dot_source: HELLO('write [prompt="Create hello.txt", llm_model="claude-sonnet-4-6"]', 'agent'),
      });
      const question = await pendingQuestion(server, run.id);
      await stop(onA);
      worker(url, machineB, { env });
      await server.json('POST', `/pipelines/${run.id}/questions/${question.id}/answer`, { answer: 'G' });
      const done = await ended(server, run.id);
      expect(done.status, JSON.stringify(done.failure)).toBe('completed');
      expect(readFileSync(stageFile(machineB, run.id, 'after', 'stdout.log'), 'utf8')).toBe('hi\n');

      // Another server, started now, has run nothing: what it shows comes from the database.
      const viewer = await testServer({ store: url, allowTools: true });
      const { status, body: write } = await viewer.json('GET', `/pipelines/${run.id}/nodes/write`);
      expect(status).toBe(200);
      expect(write.status.outcome).toBe('success');
      expect(write.prompt).toContain('Create hello.txt');
      expect(write.response).toContain('Wrote hello.txt.');
      expect(write.diff).toContain('+++ b/hello.txt');
      expect(write.diff).toContain('+hi');
      const { body: after } = await viewer.json('GET', `/pipelines/${run.id}/nodes/after`);
      expect(after.stdout).toBe('hi\n');
      expect(after.diff).toBe('');
    } finally {
      await model.close();
    }
  }, 120_000);

  it('a named working_dir shared by both workers is kept as it is: the continuation works there, nothing restored over it', async () => {
    const url = await cluster.createDatabase('travel_shared');
    const server = await testServer({ store: url, allowTools: true });
    const shared = realpathSync(tempDir());
    const more = ['--allow-workdir', shared];
    const onA = worker(url, realpathSync(tempDir()), { more });
    const machineB = realpathSync(tempDir());
    const dot = HELLO(`write [shape=parallelogram, tool_command="printf shared > hello.txt"]`);
    const { body: run } = await server.json('POST', '/pipelines', {
      dot_source: dot,
      scenario: {},
      working_dir: shared,
    });
    const question = await pendingQuestion(server, run.id);
    await stop(onA);
    // A person's edit in the shared folder while the run waits: the continuation keeps it.
    writeFileSync(path.join(shared, 'hello.txt'), 'edited');
    worker(url, machineB, { more });
    await server.json('POST', `/pipelines/${run.id}/questions/${question.id}/answer`, { answer: 'G' });
    const done = await ended(server, run.id);
    expect(done.status, JSON.stringify(done.failure)).toBe('completed');
    expect(readFileSync(stageFile(machineB, run.id, 'after', 'stdout.log'), 'utf8')).toBe('edited');
    const events = readFileSync(path.join(machineB, 'runs', run.id, 'run', 'events.jsonl'), 'utf8');
    const resumed = events
      .split('\n')
      .filter((line) => line.includes('"tree.resume"'))
      .map((line) => JSON.parse(line));
    expect(resumed.at(-1)?.data).toMatchObject({ action: 'kept', changed: ['hello.txt'] });
    expect(existsSync(path.join(shared, '.git'))).toBe(false);
  }, 120_000);

  it('a damaged snapshot in the store stops the continuation with the error that names the node and the way out', async () => {
    const url = await cluster.createDatabase('travel_damaged');
    const server = await testServer({ store: url, allowTools: true });
    const onA = worker(url, realpathSync(tempDir()));
    const dot = HELLO(`write [shape=parallelogram, tool_command="printf x > hello.txt"]`);
    const { body: run } = await server.json('POST', '/pipelines', { dot_source: dot, scenario: {} });
    const question = await pendingQuestion(server, run.id);
    await stop(onA);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const damaged = await db.query(
        "UPDATE attractor.tree_bundles SET bundle = 'damaged' WHERE run_id = $1",
        [run.id],
      );
      expect(damaged.rowCount).toBeGreaterThan(0);
    } finally {
      await db.end();
    }
    worker(url, realpathSync(tempDir()));
    await server.json('POST', `/pipelines/${run.id}/questions/${question.id}/answer`, { answer: 'G' });
    const done = await ended(server, run.id);
    expect(done.status).toBe('failed');
    expect(done.failure.reason).toContain('the snapshot of the working tree at node "review" (commit ');
    expect(done.failure.reason).toContain(
      "resume in the folder that holds the run's files, or start the run again",
    );
  }, 120_000);

  it('with --git-remote the snapshots go to that repository, not the store, and the run still crosses machines', async () => {
    const url = await cluster.createDatabase('travel_remote');
    const remote = path.join(tempDir(), 'snapshots.git');
    execFileSync('git', ['init', '--quiet', '--bare', remote]);
    const server = await testServer({ store: url, allowTools: true });
    const machineA = realpathSync(tempDir());
    const machineB = realpathSync(tempDir());
    const more = ['--git-remote', `file://${remote}`];
    const onA = worker(url, machineA, { more });
    const dot = HELLO(`write [shape=parallelogram, tool_command="printf remote > hello.txt"]`);
    const { body: run } = await server.json('POST', '/pipelines', { dot_source: dot, scenario: {} });
    const question = await pendingQuestion(server, run.id);
    await stop(onA);
    worker(url, machineB, { more });
    await server.json('POST', `/pipelines/${run.id}/questions/${question.id}/answer`, { answer: 'G' });
    const done = await ended(server, run.id);
    expect(done.status, JSON.stringify(done.failure)).toBe('completed');
    expect(readFileSync(stageFile(machineB, run.id, 'after', 'stdout.log'), 'utf8')).toBe('remote');
    const head = execFileSync('git', ['--git-dir', remote, 'rev-parse', `refs/attractor/runs/${run.id}`], {
      encoding: 'utf8',
    }).trim();
    const checkpoint = (await server.json('GET', `/pipelines/${run.id}/checkpoint`)).body;
    expect(head).toBe(checkpoint.tree_head);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT 1 FROM attractor.tree_bundles WHERE run_id = $1', [run.id]);
      expect(rows).toEqual([]);
    } finally {
      await db.end();
    }
  }, 120_000);
});
