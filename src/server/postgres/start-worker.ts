import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { RealRunSettings } from '../../actors/codergen/real-run-services.js';
import { ProcessLedger } from '../../shared/process/process-ledger.js';
import { stopLeftoverProcesses } from '../../shared/process/stop-leftover-processes.js';
import type { SandboxSettings } from '../../shared/sandbox/sandbox-settings.js';
import { serverSandbox } from '../../shared/sandbox/server-sandbox.js';
import { type RemoteRuns, RunManager } from '../run-manager.js';
import { allowedWorkdirRoots } from '../run-working-dir.js';
import { PostgresRunStore } from './postgres-run-store.js';
import { RunEventFolds } from './run-event-folds.js';
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
  /**
   * Folders a submitted `working_dir` may lie in (`--allow-workdir`; each must exist).
   * A run that names none works in `<dataDir>/runs/<id>/work`.
   */
  allowWorkdirs?: readonly string[];
  realRuns?: Pick<RealRunSettings, 'workingDir' | 'env'>;
  onError?: (error: Error) => void;
  /** A run whose worker died continues on another after this long (default 30 s). */
  leaseMs?: number;
  /** How commands are sandboxed (`serverSandbox`, decision 0341); absent: a working sandbox or refusal. */
  sandbox?: SandboxSettings;
}

/** How long a dead worker's run waits before another worker takes it over. */
export const DEFAULT_LEASE_MS = 30_000;

export interface RunningWorker {
  manager: RunManager;
  /** Take no more runs, pause running ones at their next node (checkpointed), then disconnect. */
  drain(graceMs?: number): Promise<void>;
}

/**
 * A worker that died on this machine may have left tool commands running in its runs' folders, and
 * those runs may go on elsewhere by now: stop every process group their ledgers name before taking work.
 */
function stopWhatDeadWorkersLeft(dataDir: string): void {
  const runs = path.join(path.resolve(dataDir), 'runs');
  if (!existsSync(runs)) return;
  for (const id of readdirSync(runs)) {
    const runDir = path.join(runs, id, 'run');
    if (existsSync(path.join(runDir, 'processes.json')))
      stopLeftoverProcesses(ProcessLedger.forRunDir(runDir));
  }
}

/** What a server or worker needs of the store and the queue for runs executing on workers. */
export function remoteRuns(store: PostgresRunStore, queue: RunQueue, leaseMs = DEFAULT_LEASE_MS): RemoteRuns {
  const folds = new RunEventFolds(
    (id, after, limit) => store.eventsAfter(id, after, limit),
    (id) => store.eventHub(id).eventCount,
  );
  return {
    schedule: (id, at) => queue.schedule(id, at),
    requestCancel: (id) => store.requestCancel(id),
    cancelUntaken: (id) => store.cancelUntaken(id),
    onCancelRequested: (listener) => store.onCancelRequested(listener),
    eventHub: (id) => store.eventHub(id),
    refresh: (id) => store.refresh(id),
    materialize: (id, runDir) => store.materialize(id, runDir),
    take: (id) => store.owners.take(id),
    holdLease: (id, attempt, onLost) => {
      // Lost either way: the lease could not be pushed back, or a write found the run taken over.
      store.owners.onRefused(id, attempt, () =>
        onLost(new Error(`run ${id} was taken over by another worker`)),
      );
      const release = queue.holdLease(id, leaseMs, onLost, () => store.owners.owns(id, attempt));
      return async () => {
        // A run owned since by another worker, or by a later attempt here, keeps its lease job: it is
        // the new owner's.
        const mine = await store.owners.owns(id, attempt).catch(() => false);
        store.owners.disown(id, attempt);
        await release(!mine);
      };
    },
    folded: (id) => folds.fold(id),
    checkpoint: (id) => store.storedCheckpoint(id),
    stage: (id, stage) => store.storedStage(id, stage),
    catchUp: async (id) => {
      await folds.catchUp(id);
    },
  };
}

/**
 * `attractor worker`: execute the runs servers schedule on the PostgreSQL store's queue, `concurrency`
 * at once, each in a run directory under `dataDir` whose record is kept in the database.
 */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const onError = options.onError ?? (() => {});
  const workdirRoots = allowedWorkdirRoots(options.allowWorkdirs ?? []);
  // Before anything is opened: a worker that cannot sandbox refuses to start (unless `--unsandboxed`).
  const sandbox = options.sandbox ?? serverSandbox(false, options.dataDir, 'worker');
  stopWhatDeadWorkersLeft(options.dataDir);
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
    workingDirs: { roots: workdirRoots, perRun: true, who: 'this worker' },
    remote: { role: 'worker', runs: remoteRuns(store, queue, options.leaseMs) },
    sandbox,
  });
  await queue.work(
    (job) => manager.execute(job.run_id, job.takeover ? { takeover: true } : {}),
    options.concurrency,
    options.leaseMs ?? DEFAULT_LEASE_MS,
  );
  return {
    manager,
    async drain(graceMs) {
      await manager.drain(graceMs);
      await queue.close();
      await store.close();
    },
  };
}
