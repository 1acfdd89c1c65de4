/**
 * What the database decides for servers and workers together: one answer to a question, a cancel
 * that outlives the worker it was meant for, and the resume of a failed run whose folder is elsewhere.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverSandbox } from '../../../src/shared/sandbox/server-sandbox.js';
import { startWorker } from '../../../src/worker/start-worker.js';
import { ensureDist } from '../../helpers/ensure-dist.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { type TestServer, testServer, waitFor } from '../server-fixtures.js';
import { machinesForEachTest, readFileOrEmpty } from './machines-fixtures.js';

const cluster = postgresClusterForFile(180_000);
const { workers, workerProcess } = machinesForEachTest();

async function ended(server: TestServer, id: string, ms = 30_000) {
  return waitFor(
    async () => {
      const { body } = await server.json('GET', `/pipelines/${id}`);
      return ['completed', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
    },
    `run ${id} to end`,
    ms,
  );
}

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('runs on PostgreSQL, decided by the database', () => {
  beforeAll(() => {
    ensureDist();
  }, 180_000);

  it('two answers to one question sent to two servers at once: one is taken (200), the other is 409', async () => {
    const url = await cluster.createDatabase('twoanswers');
    const a = await testServer({ store: url });
    const b = await testServer({ store: url });
    workers.push(await startWorker({ store: url, dataDir: tempDir(), concurrency: 1, allowTools: false }));
    const dot = `digraph g {
      start [shape=Mdiamond]
      gate [shape=hexagon, label="Go?"]
      yes [prompt="yes"]
      no [prompt="no"]
      exit [shape=Msquare]
      start -> gate
      gate -> yes [label="[Y] Yes"]
      gate -> no [label="[N] No"]
      yes -> exit
      no -> exit
    }`;
    const { body: run } = await a.json('POST', '/pipelines', { dot_source: dot, scenario: {} });
    // Both servers list the gate's question (the worker released the run there).
    const asked = async (server: TestServer) =>
      waitFor(
        async () =>
          (await server.json('GET', `/pipelines/${run.id}/questions`)).body[0]?.id as string | undefined,
        'the question',
        20_000,
      );
    const question = await asked(a);
    expect(await asked(b)).toBe(question);
    const answers = await Promise.all([
      a.json('POST', `/pipelines/${run.id}/questions/${question}/answer`, { answer: 'Y' }),
      b.json('POST', `/pipelines/${run.id}/questions/${question}/answer`, { answer: 'N' }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = answers.find((r) => r.status === 409);
    expect(refused?.body.error.code).toBe('QUESTION_NOT_PENDING');
    // The run goes the way of the answer that was taken.
    const taken = answers[0]?.status === 200 ? 'yes' : 'no';
    expect(await ended(a, run.id)).toMatchObject({ status: 'completed' });
    const nodes = await a.json('GET', `/pipelines/${run.id}/graph`);
    expect(nodes.body.statuses[taken]).toBe('success');
    expect(nodes.body.statuses[taken === 'yes' ? 'no' : 'yes']).toBeUndefined();
  }, 90_000);

  it("a cancel sent while the run's worker is dead is kept: the worker that takes the run over ends it cancelled", async () => {
    const url = await cluster.createDatabase('deadcancel');
    const dir = tempDir();
    const started = path.join(dir, 'started');
    const go = path.join(dir, 'go');
    const marks = path.join(dir, 'marks');
    const server = await testServer({ store: url, allowTools: true });
    const machine = tempDir();
    const doomed = workerProcess(url, machine, 2, ['--unsandboxed']);
    // The test watches the command through files outside its working folder: what sandbox="off" (on
    // workers started --unsandboxed) allows.
    const dot = `digraph c {
      sandbox="off"
      start [shape=Mdiamond]
      work [shape=parallelogram, tool_command="echo >> ${started}; while [ ! -f ${go} ]; do sleep 0.05; done; echo done >> ${marks}"]
      exit [shape=Msquare]
      start -> work -> exit
    }`;
    const { body: run } = await server.json('POST', '/pipelines', { dot_source: dot, scenario: {} });
    await waitFor(() => (readFileOrEmpty(started) ? true : undefined), 'the work to start', 20_000);
    doomed.kill('SIGKILL');
    // Nobody hears the cancel now; it answers once it has waited for the run to stop, which it does not.
    const cancel = await server.json('POST', `/pipelines/${run.id}/cancel`);
    expect(cancel.status).toBe(200);
    // The machine's worker comes back (its lease of the run has long run out) and may finish the work.
    workers.push(
      await startWorker({
        store: url,
        dataDir: machine,
        concurrency: 1,
        allowTools: true,
        leaseMs: 2_000,
        sandbox: serverSandbox(true, undefined, 'worker'),
      }),
    );
    writeFileSync(go, '');
    expect(await ended(server, run.id)).toMatchObject({ status: 'cancelled' });
    expect(readFileOrEmpty(marks)).toBe('');
  }, 90_000);

  it('resumes a failed run from the checkpoint in the database, on a worker that never had its folder', async () => {
    const url = await cluster.createDatabase('resumefailed');
    const dir = tempDir();
    const flag = path.join(dir, 'provider-is-back');
    const server = await testServer({ store: url, allowTools: true });
    const unsandboxed = serverSandbox(true, undefined, 'worker');
    const first = await startWorker({
      store: url,
      dataDir: tempDir(),
      concurrency: 1,
      allowTools: true,
      sandbox: unsandboxed,
    });
    // The commands read and write a folder outside their working folder: sandbox="off" on these workers.
    const dot = `digraph flaky {
      sandbox="off"
      start [shape=Mdiamond]
      exit [shape=Msquare]
      first [shape=parallelogram, tool_command="echo first >> ${dir}/ran"]
      call [shape=parallelogram, tool_command="test -e ${flag}"]
      start -> first -> call -> exit
    }`;
    const { body } = await server.json('POST', '/pipelines', { dot_source: dot, scenario: {} });
    expect(await ended(server, body.id)).toMatchObject({ status: 'failed' });
    await first.drain(1_000);
    workers.push(
      await startWorker({
        store: url,
        dataDir: tempDir(),
        concurrency: 1,
        allowTools: true,
        sandbox: unsandboxed,
      }),
    );
    writeFileSync(flag, '');
    const resumed = await server.json('POST', `/pipelines/${body.id}/resume`);
    expect(resumed.status).toBe(202);
    expect(await ended(server, body.id)).toMatchObject({ status: 'completed', stopped_at: 'exit' });
    // The node before the failure ran once: the resume started at the node that failed.
    expect(readFileOrEmpty(path.join(dir, 'ran'))).toBe('first\n');
    const again = await server.json('POST', `/pipelines/${body.id}/resume`);
    expect(again.status).toBe(409);
  }, 90_000);
});
