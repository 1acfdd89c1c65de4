import type { RealRunSettings } from '../../actors/codergen/real-run-services.js';
import { type RemoteRuns, RunManager } from '../run-manager.js';
import { PostgresRunStore } from './postgres-run-store.js';
import { RunQueue } from './run-queue.js';

export interface WorkerOptions {
  /** The PostgreSQL store's URL (`postgres://…`), the same the servers use. */
  store: string;
  /** This worker's run directories (working copies) go under `<dataDir>/runs/<id>/run`. */
  dataDir: string;
  /** Runs this worker executes at once. */
  concurrency: number;
  allowTools: boolean;
  allowDirs?: readonly string[];
  realRuns?: Pick<RealRunSettings, 'workingDir' | 'env'>;
  onError?: (error: Error) => void;
}

export interface RunningWorker {
  manager: RunManager;
  /** Take no more runs, pause running ones at their next node (checkpointed), then disconnect. */
  drain(graceMs?: number): Promise<void>;
}

/** What a server or worker needs of the store and the queue for runs executing on workers. */
export function remoteRuns(store: PostgresRunStore, queue: RunQueue): RemoteRuns {
  return {
    schedule: (id) => queue.schedule(id),
    requestCancel: (id) => store.requestCancel(id),
    onCancelRequested: (listener) => store.onCancelRequested(listener),
    eventHub: (id) => store.eventHub(id),
    refresh: (id) => store.refresh(id),
    materialize: (id, runDir) => store.materialize(id, runDir),
  };
}

/**
 * `attractor worker`: execute the runs servers schedule on the PostgreSQL store's queue, `concurrency`
 * at once, each in a run directory under `dataDir` whose record is kept in the database.
 */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const onError = options.onError ?? (() => {});
  const store = await PostgresRunStore.open(options.store, options.dataDir, onError);
  let queue: RunQueue;
  try {
    queue = await RunQueue.open(options.store);
  } catch (error) {
    await store.close();
    throw error;
  }
  const manager = new RunManager({
    store,
    maxConcurrentRuns: options.concurrency,
    allowTools: options.allowTools,
    ...(options.allowDirs ? { allowDirs: options.allowDirs } : {}),
    ...(options.realRuns ? { realRuns: options.realRuns } : {}),
    remote: { role: 'worker', runs: remoteRuns(store, queue) },
  });
  await queue.work((id) => manager.execute(id), options.concurrency);
  return {
    manager,
    async drain(graceMs) {
      await manager.drain(graceMs);
      await queue.close();
      await store.close();
    },
  };
}
