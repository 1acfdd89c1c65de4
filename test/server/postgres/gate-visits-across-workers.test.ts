import { afterEach, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../../../src/worker/start-worker.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { closeServers, testServer, waitFor } from '../server-fixtures.js';

// A gate that loops back: each visit asks a new question.
const LOOP = `digraph loop {
  start [shape=Mdiamond]
  plan [prompt="Plan"]
  review [shape=hexagon, label="Ship it?"]
  exit [shape=Msquare]
  start -> plan -> review
  review -> exit [label="[S] Ship"]
  review -> plan [label="[R] Rework"]
}`;

const cluster = postgresClusterForFile();
const workers = new Set<RunningWorker>();

afterEach(async () => {
  await closeServers();
  for (const worker of workers) await worker.drain(1_000);
  workers.clear();
});

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('a gate visited again on another machine', () => {
  it("takes the database's answer though this machine's run directory numbers the gate's questions otherwise", async () => {
    const url = await cluster.createDatabase('visits');
    const server = await testServer({ store: url });
    const machineA = tempDir();
    const machineB = tempDir();
    const worker = async (dataDir: string) => {
      const started = await startWorker({ store: url, dataDir, concurrency: 2, allowTools: false });
      workers.add(started);
      return started;
    };
    const stop = async (started: RunningWorker) => {
      workers.delete(started);
      await started.drain(1_000);
    };
    const atGate = (id: string, visit: number): Promise<{ id: string }> =>
      waitFor(async () => {
        const { body: run } = await server.json('GET', `/pipelines/${id}`);
        const { body: questions } = await server.json('GET', `/pipelines/${id}/questions`);
        return run.status === 'waiting' && questions.length === 1 ? questions[0] : undefined;
      }, `visit ${visit} of the gate`);

    // Visit 1 on machine A, which keeps the question open in its run directory when it releases it.
    let current = await worker(machineA);
    const { body: run } = await server.json('POST', '/pipelines', { dot_source: LOOP, dry_run: true });
    const first = await atGate(run.id, 1);
    await stop(current);
    // Answered; visit 2 happens on machine B.
    current = await worker(machineB);
    await server.json('POST', `/pipelines/${run.id}/questions/${first.id}/answer`, { answer: 'R' });
    const second = await waitFor(async () => {
      const question = await atGate(run.id, 2);
      return question.id !== first.id ? question : undefined;
    }, 'the second question');
    await stop(current);
    // Back on machine A, whose run directory still holds visit 1's open question.
    current = await worker(machineA);
    await server.json('POST', `/pipelines/${run.id}/questions/${second.id}/answer`, { answer: 'S' });
    const done = await waitFor(
      async () => {
        const { body } = await server.json('GET', `/pipelines/${run.id}`);
        return body.status === 'completed' ? body : undefined;
      },
      'the run to complete on machine A',
      20_000,
    );
    expect(done.current_node).toBe('exit');
    expect((await server.json('GET', `/pipelines/${run.id}/graph`)).body.statuses).toMatchObject({
      review: 'success',
      exit: 'success',
    });
  }, 90_000);
});
