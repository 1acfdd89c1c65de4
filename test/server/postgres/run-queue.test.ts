import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RunQueue } from '../../../src/server/postgres/run-queue.js';
import { ensureDist, ROOT } from '../../helpers/ensure-dist.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { waitFor } from '../server-fixtures.js';

const cluster = postgresClusterForFile(180_000);
const children: ChildProcess[] = [];
const queues: RunQueue[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const queue of queues.splice(0)) await queue.close();
});

/**
 * A worker process that takes jobs and never finishes them, as one does between taking a run's job and
 * starting the run (no run lease exists yet): it says which run it took, then waits to be killed.
 */
function stuckWorker(url: string, leaseMs: number): { child: ChildProcess; took: Promise<string> } {
  const module = pathToFileURL(path.join(ROOT, 'dist', 'server', 'postgres', 'run-queue.js')).href;
  const script = `
    const { RunQueue } = await import(${JSON.stringify(module)});
    const queue = await RunQueue.open(${JSON.stringify(url)});
    await queue.work(async (job) => { console.log('took ' + job.run_id); await new Promise(() => {}); }, 1, ${leaseMs});
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const took = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /took (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the stuck worker exited (${code}) before taking a job`)));
  });
  return { child, took };
}

describe.runIf(PG_AVAILABLE || PG_REQUIRED)("the run queue's worker lease", () => {
  beforeAll(() => {
    ensureDist();
  }, 180_000);

  it("a job a SIGKILLed worker had taken runs on another worker once the dead one's lease fires", async () => {
    const url = await cluster.createDatabase('queue_alive');
    const scheduler = await RunQueue.open(url);
    queues.push(scheduler);
    await scheduler.schedule('r1');
    const stuck = stuckWorker(url, 2_000);
    expect(await stuck.took).toBe('r1');
    stuck.child.kill('SIGKILL');
    const killedAt = Date.now();

    const executed: string[] = [];
    const survivor = await RunQueue.open(url);
    queues.push(survivor);
    await survivor.work(
      async (job) => {
        executed.push(job.run_id);
      },
      2,
      2_000,
    );
    await waitFor(() => (executed.includes('r1') ? true : undefined), 'the dead worker’s job to run', 30_000);
    // Not before the dead worker's lease (2 s) ran out: until then it may be alive.
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(1_500);
    expect(executed).toEqual(['r1']);
  }, 90_000);

  it('a live worker keeps its lease ahead of it, and removes it when it stops', async () => {
    const url = await cluster.createDatabase('queue_alive_live');
    const queue = await RunQueue.open(url);
    await queue.work(async () => {}, 3, 3_000);
    expect(queue.workerIds).toHaveLength(3);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const lease = async () =>
        (
          await client.query<{ payload: { worker_ids: string[] }; ahead: string }>(
            `SELECT j.payload, extract(epoch FROM j.run_at - now()) AS ahead
             FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
             WHERE t.identifier = 'attractor_worker_alive'`,
          )
        ).rows.map((row) => ({ workerIds: row.payload.worker_ids, ahead: Number(row.ahead) }));
      const [first] = await lease();
      expect(first?.workerIds).toEqual([...queue.workerIds]);
      expect(first?.ahead).toBeGreaterThan(1);
      // Pushed back every third of the lease: after a whole lease it is still ahead.
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      const [later] = await lease();
      expect(later?.ahead).toBeGreaterThan(0);
      await queue.close();
      expect(await lease()).toEqual([]);
    } finally {
      await client.end();
    }
  }, 60_000);
});
