import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { RealRunSettings } from '../actors/codergen/real-run-services.js';
import type { NotifySettings } from '../server/notify/notify-settings.js';
import { openDatabaseNotifier } from '../server/postgres/open-database-notifier.js';
import { PostgresRunStore } from '../server/postgres/postgres-run-store.js';
import { DEFAULT_LEASE_MS, remoteRuns } from '../server/postgres/remote-runs.js';
import { RunQueue } from '../server/postgres/run-queue.js';
import { allowedWorkdirRoots } from '../server/run-working-dir.js';
import { definedFields } from '../shared/defined-fields.js';
import { ProcessLedger } from '../shared/process/process-ledger.js';
import { stopLeftoverProcesses } from '../shared/process/stop-leftover-processes.js';
import type { SandboxSettings } from '../shared/sandbox/sandbox-settings.js';
import { serverSandbox } from '../shared/sandbox/server-sandbox.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { WorkerRunEvent } from './worker-run-event.js';
import { WorkerRuns } from './worker-runs.js';

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
  /** Push runs' snapshots to this git remote (`--git-remote`) rather than the store (decision 0331). */
  gitRemote?: string;
  /** How commands are sandboxed (`serverSandbox`, decision 0341); absent: a working sandbox or refusal. */
  sandbox?: SandboxSettings;
  /** Where runs' traces go (`--otel`, OTEL_EXPORTER_OTLP_*); absent: not traced. */
  telemetry?: Telemetry;
  /** Webhooks when a gate of a run executed here waits, is answered, or the run ends (`--notify`). */
  notify?: NotifySettings;
  /** Told when this worker takes a run, releases it at a gate, or the run stops here (its log). */
  onRunEvent?: (event: WorkerRunEvent) => void;
}

export interface RunningWorker {
  manager: WorkerRuns;
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
  let notifications: Awaited<ReturnType<typeof openDatabaseNotifier>> | undefined;
  try {
    queue = await RunQueue.open(options.store);
    // Deliveries are jobs in the database: any worker with --notify sends them, so a dead one strands none.
    notifications = options.notify
      ? await openDatabaseNotifier(options.notify, options.store, store).catch(async (error: unknown) => {
          await queue.close();
          throw error;
        })
      : undefined;
  } catch (error) {
    await store.close();
    throw error;
  }
  const manager = new WorkerRuns({
    store,
    allowTools: options.allowTools,
    ...definedFields({ allowDirs: options.allowDirs, realRuns: options.realRuns }),
    workingDirs: { roots: workdirRoots, perRun: true, who: 'this worker', dataDir: options.dataDir },
    runs: remoteRuns(store, queue, options.leaseMs),
    ...(options.gitRemote ? { gitRemote: options.gitRemote } : {}),
    ...definedFields({ onRunEvent: options.onRunEvent }),
    sandbox,
    ...definedFields({ telemetry: options.telemetry }),
    ...(notifications ? { notifier: notifications.notifier } : {}),
  });
  await queue.work(
    (job) => manager.execute(job.run_id, job.takeover ? { takeover: true } : {}),
    options.concurrency,
    options.leaseMs ?? DEFAULT_LEASE_MS,
    notifications?.workerIds,
  );
  return {
    manager,
    async drain(graceMs) {
      await manager.drain(graceMs);
      await queue.close();
      // Before the store: a delivery given up while closing is recorded there.
      await notifications?.close();
      await store.close();
      await options.telemetry?.shutdown();
    },
  };
}
