import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../../../src/worker/start-worker.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { closeServers, GATE_PIPELINE, type TestServer, testServer, waitFor } from '../server-fixtures.js';

const cluster = postgresClusterForFile();
let databases = 0;
const workers: RunningWorker[] = [];

afterEach(async () => {
  await closeServers();
  for (const worker of workers.splice(0)) await worker.drain(1_000);
});

/**
 * A server and a worker on a fresh database. The worker's folder is another machine's: `forget()`
 * removes it, so the server can show only what the database holds.
 */
async function setUp(): Promise<{ url: string; server: TestServer; forget: () => void }> {
  const url = await cluster.createDatabase(`views_${++databases}`);
  const server = await testServer({ store: url });
  const machine = tempDir();
  workers.push(await startWorker({ store: url, dataDir: machine, concurrency: 2, allowTools: false }));
  return { url, server, forget: () => rmSync(machine, { recursive: true, force: true }) };
}

async function untilStatus(server: TestServer, id: string, status: string) {
  return waitFor(
    async () => {
      const { body } = await server.json('GET', `/pipelines/${id}`);
      return body.status === status ? body : undefined;
    },
    `run ${id} to be ${status}`,
    20_000,
  );
}

/** Runs GATE_PIPELINE on `server` to its gate, answers Ship, and waits for it to complete. */
async function throughTheGate(server: TestServer, atGate: (id: string) => Promise<void> = async () => {}) {
  const { body: run } = await server.json('POST', '/pipelines', { dot_source: GATE_PIPELINE, dry_run: true });
  const question = await waitFor(async () => {
    const { body } = await server.json('GET', `/pipelines/${run.id}/questions`);
    return body[0];
  }, 'the gate');
  await atGate(run.id);
  await server.json('POST', `/pipelines/${run.id}/questions/${question.id}/answer`, { answer: 'S' });
  return { id: run.id as string, done: await untilStatus(server, run.id, 'completed') };
}

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('views of runs executed by workers', () => {
  it("show the run's node statuses and summary from the database, as for a run on the file store", async () => {
    const { url, server, forget } = await setUp();
    const { id, done } = await throughTheGate(server, async (runId) => {
      await untilStatus(server, runId, 'waiting');
      forget();
      // At the gate: its node waits, the nodes before it succeeded.
      const { body: graph } = await server.json('GET', `/pipelines/${runId}/graph`);
      expect(graph.statuses).toEqual({ start: 'success', plan: 'success', review: 'waiting' });
      const { body: node } = await server.json('GET', `/pipelines/${runId}/nodes/review`);
      expect(node.state).toBe('waiting');
    });
    forget();
    const local = await testServer();
    const { id: localId, done: localDone } = await throughTheGate(local);

    const { body: graph } = await server.json('GET', `/pipelines/${id}/graph`);
    const { body: localGraph } = await local.json('GET', `/pipelines/${localId}/graph`);
    expect(graph.statuses).toEqual(localGraph.statuses);
    expect(graph.statuses).toMatchObject({ review: 'success', ship: 'success', exit: 'success' });
    const { body: ship } = await server.json('GET', `/pipelines/${id}/nodes/ship`);
    const { body: localShip } = await local.json('GET', `/pipelines/${localId}/nodes/ship`);
    expect(ship.state).toBe('success');
    // Its stage record and checkpoint as the worker committed them.
    expect(ship.status).toEqual(localShip.status);
    expect(ship.status.outcome).toBe('success');
    const { body: checkpoint } = await server.json('GET', `/pipelines/${id}/checkpoint`);
    const { body: localCheckpoint } = await local.json('GET', `/pipelines/${localId}/checkpoint`);
    expect(checkpoint.completed_nodes).toEqual(localCheckpoint.completed_nodes);
    const { body: context } = await server.json('GET', `/pipelines/${id}/context`);
    expect(context.context['human.gate.selected']).toBe('S');
    // The summary a view shows: where it stopped, when it ran.
    expect(done.current_node).toBe(localDone.current_node);
    expect(done.started_at).toEqual(expect.any(String));
    expect(done.ended_at).toEqual(expect.any(String));
    const { body: list } = await server.json('GET', '/pipelines');
    expect(list.pipelines[0]).toMatchObject({ id, current_node: 'exit', ended_at: done.ended_at });
    // A second server of the same database, which never followed the run, shows the same.
    await server.manager.persisted();
    const other = await testServer({ store: url });
    const { body: otherGraph } = await other.json('GET', `/pipelines/${id}/graph`);
    expect(otherGraph.statuses).toEqual(graph.statuses);
    expect((await other.json('GET', `/pipelines/${id}`)).body.current_node).toBe('exit');
  }, 60_000);

  it('a run released at its gate and continued shows nothing of the release: no failure, its own quality', async () => {
    const { server } = await setUp();
    const { done } = await throughTheGate(server, async (runId) => {
      const waiting = await untilStatus(server, runId, 'waiting');
      // Released, not ended: the cancel that freed its worker is no failure and gives no quality.
      expect(waiting).not.toHaveProperty('failure');
      expect(waiting).not.toHaveProperty('quality');
      expect(waiting).not.toHaveProperty('stopped_at');
    });
    expect(done).toMatchObject({ status: 'completed', quality: 'clean', outcome: 'success' });
    expect(done).not.toHaveProperty('failure');
    expect(done.notes).toBe(`reached ${done.stopped_at}`);
  }, 60_000);
});
