import type { Identity } from '../../shared/identity.js';
import type { NodeStatus } from '../node-statuses.js';
import type { RunRecord, StoredQuestion } from '../run-record.js';
import type { RunEvents } from '../run-service.js';
import type { RunStore } from '../run-store.js';
import type { RunSummary } from '../run-summary.js';
import type { PostgresRunStore } from './postgres-run-store.js';
import { RunEventFolds } from './run-event-folds.js';
import type { RunQueue } from './run-queue.js';

/** How long a dead worker's run waits before another worker takes it over. */
export const DEFAULT_LEASE_MS = 30_000;

/** What a server needs of runs executing on workers: a queue, a cancel that reaches them, shared events. */
export interface ServerSideRuns {
  /**
   * Have a worker execute the run now, or at `at` (a gate's timeout): a later schedule of the run
   * replaces an earlier one, except that one at `at` never delays one already due.
   */
  schedule(id: string, at?: Date): Promise<void>;
  /** Cancel a run a worker has taken: its worker hears it now, or the next one to take it (`cancelRequested`). */
  requestCancel(id: string, by: Identity): Promise<void>;
  /** Answer a question as a compare-and-set among all servers (`PostgresRunStore.changeQuestions`). */
  changeQuestions(id: string, change: (questions: StoredQuestion[]) => StoredQuestion[]): Promise<void>;
  /** Cancel the run unless a worker has taken it (compare-and-set with `take`): false when one has. */
  cancelUntaken(id: string, by: Identity): Promise<boolean>;
  eventHub(id: string): RunEvents;
  /** The run as the database has it now. */
  refresh(id: string): Promise<RunRecord | undefined>;
  /** The run's node statuses and summary, folded from its stored events as far as `catchUp` read them. */
  folded(id: string): { statuses: ReadonlyMap<string, NodeStatus>; summary: RunSummary };
  /** Fold in the run's events stored since the last read. */
  catchUp(id: string): Promise<void>;
  /** The run's newest checkpoint and a stage's `status.json`, as stored (its files are elsewhere). */
  checkpoint(id: string): Promise<Record<string, unknown> | undefined>;
  stage(id: string, stage: string): Promise<unknown>;
  /** The files the node panel shows of a stage (prompt, response, output, diff), as stored. */
  stageFiles(id: string, stage: string): Promise<Record<string, string>>;
}

/** What a worker needs of the runs the queue gives it: ownership, a lease, the stored checkpoint. */
export interface WorkerSideRuns {
  schedule(id: string, at?: Date): Promise<void>;
  refresh(id: string): Promise<RunRecord | undefined>;
  /** `by`: who asked (absent from an older server). */
  onCancelRequested(listener: (id: string, by: Identity | undefined) => void): void;
  /** A cancel of the run asked for (perhaps while no worker was alive to hear it), and by whom; else undefined. */
  cancelRequested(id: string): Promise<{ by: Identity | undefined } | undefined>;
  /** Put the database's newest checkpoint of the run in `runDir`; false when it has none. */
  materialize(id: string, runDir: string): Promise<boolean>;
  /**
   * Become the run's owner (its attempt counter, compare-and-set): false when another worker took it
   * first. The owner's writes of the run are kept only while it stays the owner.
   */
  take(id: string): Promise<number | undefined>;
  /**
   * Hold the run's lease while this worker executes it at `attempt` (what `take` returned; see
   * `RunQueue.holdLease`); returns the release.
   */
  holdLease(id: string, attempt: number, onLost: (error: Error) => void): () => Promise<void>;
}

/** Runs executing on workers, as servers and workers see them. */
export type RemoteRuns = ServerSideRuns & WorkerSideRuns;

/** What a server or worker needs of the store and the queue for runs executing on workers. */
export function remoteRuns(store: PostgresRunStore, queue: RunQueue, leaseMs = DEFAULT_LEASE_MS): RemoteRuns {
  const folds = new RunEventFolds(
    (id, after, limit) => store.eventsAfter(id, after, limit),
    (id) => store.eventHub(id).eventCount,
  );
  return {
    schedule: (id, at) => queue.schedule(id, at),
    requestCancel: (id, by) => store.requestCancel(id, by),
    cancelUntaken: (id, by) => store.cancelUntaken(id, by),
    onCancelRequested: (listener) => store.onCancelRequested(listener),
    cancelRequested: (id) => store.cancelRequested(id),
    changeQuestions: (id, change) => store.changeQuestions(id, change),
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
    stageFiles: (id, stage) => store.storedStageFiles(id, stage),
    catchUp: async (id) => {
      await folds.catchUp(id);
    },
  };
}

/**
 * Schedule run `id` once what the store was told of it is committed (a worker taking the job at once
 * must find it); a schedule that fails fails the run.
 */
export function scheduleCommitted(store: RunStore, runs: Pick<ServerSideRuns, 'schedule'>, id: string): void {
  void (store.flush?.() ?? Promise.resolve())
    .then(() => runs.schedule(id))
    .catch((error: unknown) => {
      store.update(id, {
        status: 'failed',
        failure: {
          reason: `it could not be scheduled: ${error instanceof Error ? error.message : String(error)}`,
        },
      });
    });
}
