import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../../../src/worker/start-worker.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { closeServers, testServer, waitFor } from '../server-fixtures.js';

// A tool node on each side of a gate: the first leaves a file in its folder, the second lists its own.
const ACROSS = `digraph across {
  start [shape=Mdiamond]
  before [shape=parallelogram, tool_command="pwd && touch left-by-before"]
  review [shape=hexagon, label="Go on?"]
  after [shape=parallelogram, tool_command="pwd && ls"]
  exit [shape=Msquare]
  start -> before -> review
  review -> after [label="[G] Go"]
  after -> exit
}`;

const cluster = postgresClusterForFile();
const workers = new Set<RunningWorker>();

afterEach(async () => {
  await closeServers();
  for (const worker of workers) await worker.drain(1_000);
  workers.clear();
});

describe.runIf(PG_AVAILABLE || PG_REQUIRED)("a run's own folder when it continues on another machine", () => {
  it("is the same path under the second worker's data folder, holding the files the run left on the first", async () => {
    const url = await cluster.createDatabase('across');
    const server = await testServer({ store: url, allowTools: true });
    const machineA = realpathSync(tempDir());
    const machineB = realpathSync(tempDir());
    const worker = async (dataDir: string) => {
      const started = await startWorker({ store: url, dataDir, concurrency: 1, allowTools: true });
      workers.add(started);
      return started;
    };

    const onA = await worker(machineA);
    const { body: run } = await server.json('POST', '/pipelines', { dot_source: ACROSS, scenario: {} });
    const question = await waitFor(async () => {
      const { body: record } = await server.json('GET', `/pipelines/${run.id}`);
      const { body: questions } = await server.json('GET', `/pipelines/${run.id}/questions`);
      return record.status === 'waiting' && questions.length === 1 ? questions[0] : undefined;
    }, 'the gate on machine A');
    workers.delete(onA);
    await onA.drain(1_000);

    await worker(machineB);
    await server.json('POST', `/pipelines/${run.id}/questions/${question.id}/answer`, { answer: 'G' });
    await waitFor(
      async () => {
        const { body } = await server.json('GET', `/pipelines/${run.id}`);
        return body.status === 'completed' ? body : undefined;
      },
      'the run to complete on machine B',
      20_000,
    );
    const output = (machine: string, node: string) =>
      readFileSync(path.join(machine, 'runs', run.id, 'run', node, 'stdout.log'), 'utf8');
    expect(output(machineA, 'before').trim()).toBe(path.join(machineA, 'runs', run.id, 'work'));
    const [where, ...listed] = output(machineB, 'after').trim().split('\n');
    expect(where).toBe(path.join(machineB, 'runs', run.id, 'work'));
    // The folder is the run's: what the node before the gate left on machine A is there on machine B.
    expect(listed).toEqual(['left-by-before']);
  }, 90_000);
});
