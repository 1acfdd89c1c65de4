import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { readCheckpoint } from '../../run/checkpoint.js';
import type { RunRecordSink } from '../../run/mirrored-run-recorder.js';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import { AttractorError } from '../../shared/errors.js';
import type { Identity } from '../../shared/identity.js';
import type { PipelineEvent } from '../../shared/pipeline-event.js';
import { removePresentFile } from '../../shared/remove-file.js';
import { pageRuns } from '../page-runs.js';
import { type RunRecord, RunRecordSchema, type StoredQuestion, StoredQuestionSchema } from '../run-record.js';
import type { ListRunsQuery, RunPage, RunStore } from '../run-store.js';
import { appendRunEvent } from './append-run-event.js';
import { PostgresEventHub } from './postgres-event-hub.js';
import { migrate } from './postgres-schema.js';
import { RunOwners } from './run-owners.js';
import { type BranchWrite, materializeBranchResults, writeBranchResults } from './stored-branch-results.js';
import {
  materializeTreeBundles,
  readStageFiles,
  type TreeBundleWrite,
  writeStageFiles,
  writeTreeBundles,
} from './stored-tree.js';
import { WriteQueue } from './write-queue.js';
import { parseEventsPayload, RunRecordsBatch } from './write-run-records.js';

interface RunRow {
  record: unknown;
  source: string;
  attempt: number;
  questions: unknown;
}

/** Other processes sharing the database say on this channel which run they changed. */
const RUNS_CHANNEL = 'attractor_runs';
/** A run's executor committed events: `<run id> <newest seq>`. */
const EVENTS_CHANNEL = 'attractor_events';
/** Someone asked to cancel a run: its executor, wherever it is, stops it. */
const CANCEL_CHANNEL = 'attractor_cancel';
/** Statuses after which a run's event stream ends (a waiting or queued run goes on later). */
/** Where a commit gathers its runs' events, stage records and checkpoints. */
const RUN_RECORDS = Symbol('run records');
const ENDED = new Set(['completed', 'failed', 'cancelled', 'paused', 'interrupted']);

/**
 * PostgreSQL as the system of record (`attractor serve --store postgres://…`): run records, their DOT
 * sources, questions and answers, and, through `recordSink`, each run's events, newest checkpoint and
 * stage records. The server's interface is synchronous, so the store answers from memory (loaded at
 * `open`, kept current from other servers by LISTEN) and writes behind, in order, on one queue that
 * commits whatever a turn of the event loop produced in one transaction; `flush()` waits for it. A run's
 * working copy is its run directory under the data folder; its snapshots' bundles and the files its node
 * panels show are kept here too, so another machine continues it and any server shows it (decision 0331).
 */
export class PostgresRunStore implements RunStore {
  readonly #root: string;
  readonly #pool: pg.Pool;
  readonly #listener: pg.Client;
  readonly #writes: WriteQueue;
  readonly #records = new Map<string, RunRecord>();
  readonly #sources = new Map<string, string>();
  readonly #questions = new Map<string, StoredQuestion[]>();
  readonly #eventCounts = new Map<string, number>();
  readonly #hubs = new Map<string, PostgresEventHub>();
  readonly #cancelListeners = new Set<(id: string, by: Identity | undefined) => void>();
  readonly #owners: RunOwners;
  // Our own notifications come back to our listener too: this tells them apart.
  readonly #token = randomUUID();

  private constructor(root: string, pool: pg.Pool, listener: pg.Client, onError: (error: Error) => void) {
    this.#root = root;
    this.#pool = pool;
    this.#listener = listener;
    this.#writes = new WriteQueue(pool, onError);
    // What this process told itself of a run whose write was refused did not happen: read what did.
    this.#owners = new RunOwners(pool, (id) => {
      void this.#reload(id)
        .then(() => this.#hubs.get(id)?.changed())
        .catch(onError);
    });
  }

  /** Connect, migrate the schema to this build's version and load the runs. */
  static async open(
    url: string,
    dataDir: string,
    onError: (error: Error) => void = () => {},
  ): Promise<PostgresRunStore> {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    pool.on('error', onError);
    let listener: pg.Client | undefined;
    try {
      await migrate(pool);
      listener = new pg.Client({ connectionString: url });
      listener.on('error', onError);
      await listener.connect();
      const store = new PostgresRunStore(path.join(path.resolve(dataDir), 'runs'), pool, listener, onError);
      listener.on('notification', (message) => store.#heard(message.channel, message.payload ?? '', onError));
      await listener.query(`LISTEN ${RUNS_CHANNEL}; LISTEN ${EVENTS_CHANNEL}; LISTEN ${CANCEL_CHANNEL}`);
      const counts = await pool.query<{ run_id: string; n: string }>(
        'SELECT run_id, max(seq) AS n FROM attractor.events GROUP BY run_id',
      );
      for (const row of counts.rows) store.#eventCounts.set(row.run_id, Number(row.n));
      const { rows } = await pool.query<RunRow>(
        'SELECT r.record, r.source, r.attempt, q.questions FROM attractor.runs r LEFT JOIN attractor.questions q ON q.run_id = r.id',
      );
      for (const row of rows) store.#remember(row);
      return store;
    } catch (error) {
      await listener?.end().catch(() => {});
      await pool.end().catch(() => {});
      throw new AttractorError(
        'STORE_UNAVAILABLE',
        `cannot open the PostgreSQL store: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }

  runDirFor(id: string): string {
    return path.join(this.#root, id, 'run');
  }

  create(record: RunRecord, source: string): void {
    if (this.#records.has(record.id))
      throw new AttractorError('RUN_EXISTS', `run ${record.id} already exists.`);
    this.#records.set(record.id, record);
    this.#sources.set(record.id, source);
    this.#owners.seen(record.id, 0);
    this.#writes.push(async (client) => {
      await client.query(
        'INSERT INTO attractor.runs (id, record, status, created_at, source) VALUES ($1, $2, $3, $4, $5)',
        [record.id, record, record.status, record.created_at, source],
      );
      await this.#notify(client, record.id);
    });
  }

  get(id: string): RunRecord | undefined {
    return this.#records.get(id);
  }

  source(id: string): string {
    const source = this.#sources.get(id);
    if (source === undefined) throw new AttractorError('RUN_NOT_FOUND', `no run ${id}.`);
    return source;
  }

  update(id: string, patch: Partial<Omit<RunRecord, 'id' | 'created_at'>>): RunRecord {
    const current = this.#records.get(id);
    if (!current) throw new AttractorError('RUN_NOT_FOUND', `no run ${id}.`);
    const next = RunRecordSchema.parse({ ...current, ...patch, updated_at: new Date().toISOString() });
    this.#records.set(id, next);
    this.#writes.push(async (client) => {
      // A run that ended has no cancel still to hear (a resumed one must not meet an old one).
      await client.query(
        `UPDATE attractor.runs SET record = $2, status = $3,
           cancel_requested = cancel_requested AND $3 NOT IN ('completed', 'failed', 'cancelled')
         WHERE id = $1`,
        [id, next, next.status],
      );
      await this.#notify(client, id);
    }, this.#owners.fence(id));
    return next;
  }

  list(query: ListRunsQuery = {}): RunPage {
    return pageRuns(this.#records.values(), query);
  }

  questions(id: string): StoredQuestion[] {
    return this.#questions.get(id) ?? [];
  }

  saveQuestions(id: string, questions: StoredQuestion[]): void {
    this.#questions.set(id, questions);
    this.#writes.push(async (client) => {
      await client.query(
        `INSERT INTO attractor.questions (run_id, questions) VALUES ($1, $2)
         ON CONFLICT (run_id) DO UPDATE SET questions = EXCLUDED.questions`,
        [id, JSON.stringify(questions)],
      );
      await this.#notify(client, id);
    }, this.#owners.fence(id));
  }

  /**
   * Change run `id`'s questions as one compare-and-set among every server and worker sharing the
   * database: `change` is given them as the database holds them now (their row locked until the
   * change commits) and returns them changed, or throws to change nothing (two answers to one
   * question: the second finds it answered). What this process recorded before goes first.
   */
  async changeQuestions(
    id: string,
    change: (questions: StoredQuestion[]) => StoredQuestion[],
  ): Promise<void> {
    await this.#writes.flush();
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ questions: unknown }>(
        'SELECT questions FROM attractor.questions WHERE run_id = $1 FOR UPDATE',
        [id],
      );
      const next = change(rows[0] ? StoredQuestionSchema.array().parse(rows[0].questions) : []);
      await client.query('UPDATE attractor.questions SET questions = $2 WHERE run_id = $1', [
        id,
        JSON.stringify(next),
      ]);
      await this.#notify(client, id);
      await client.query('COMMIT');
      this.#questions.set(id, next);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Where run `id` keeps its events, checkpoint and stage records: on the store's write queue, so they
   * are committed in the order the run made them and before anything the server records after them.
   */
  recordSink(id: string): RunRecordSink {
    const events: PipelineEvent[] = [];
    const stages = new Map<string, unknown>();
    const branches: BranchWrite[] = [];
    const files = new Map<string, Record<string, string>>();
    const bundles: TreeBundleWrite[] = [];
    let checkpoint: string | undefined;
    let queued = false;
    const queue = (): void => {
      if (queued) return;
      queued = true;
      const owner = this.#owners.fence(id);
      // A refused batch is dropped whole: the run stops here, and what it made next is not kept either.
      const fence = owner && {
        ...owner,
        refused: (runId: string) => {
          queued = false;
          events.length = 0;
          stages.clear();
          branches.length = 0;
          files.clear();
          bundles.length = 0;
          checkpoint = undefined;
          owner.refused(runId);
        },
      };
      this.#writes.push(async (client, batch) => {
        queued = false;
        const drained = events.splice(0);
        const stageRows = [...stages];
        stages.clear();
        const text = checkpoint;
        checkpoint = undefined;
        await writeBranchResults(client, id, branches.splice(0));
        await writeTreeBundles(client, id, bundles.splice(0));
        const stageFiles = new Map(files);
        files.clear();
        await writeStageFiles(client, id, stageFiles);
        batch
          .gather(RUN_RECORDS, () => new RunRecordsBatch(EVENTS_CHANNEL))
          .add(id, { events: drained, stages: stageRows, checkpoint: text });
      }, fence);
    };
    return {
      event: (event) => {
        events.push(event);
        queue();
      },
      checkpoint: (text) => {
        // Only the newest is kept: a burst of steps in one turn is one write.
        checkpoint = text;
        queue();
      },
      stage: (stage, status) => {
        stages.set(stage, status);
        queue();
      },
      branch: (stage, branch, checkpoint) => {
        branches.push({ stage, branch, checkpoint });
        queue();
      },
      branchesCleared: (stage) => {
        branches.push({ stage, cleared: true });
        queue();
      },
      stageFiles: (stage, named) => {
        files.set(stage, { ...files.get(stage), ...named });
        queue();
      },
      treeBundle: (commit, bundle) => {
        bundles.push({ commit, bundle });
        queue();
      },
      settled: () => this.#writes.flush(),
    };
  }

  /**
   * Append `event` to run `id`'s stream from outside its executor (a notification given up): committed
   * at once, in its own transaction, and announced to every server as the run's own events are.
   */
  appendEvent(id: string, event: PipelineEvent): Promise<void> {
    return appendRunEvent(this.#pool, EVENTS_CHANNEL, id, event);
  }

  /** Which runs this process executes, and the condition their writes are made under. */
  get owners(): RunOwners {
    return this.#owners;
  }

  /** Run `id`'s events from the database, for any server to stream (`Last-Event-ID` = sequence number). */
  eventHub(id: string): PostgresEventHub {
    let hub = this.#hubs.get(id);
    if (!hub) {
      hub = new PostgresEventHub(this.#pool, id, this.#eventCounts.get(id) ?? 0, () => {
        const status = this.#records.get(id)?.status;
        return status !== undefined && ENDED.has(status) ? status : undefined;
      });
      this.#hubs.set(id, hub);
    }
    return hub;
  }

  /** Run `id`'s newest stored checkpoint, as its executor last committed it. */
  async storedCheckpoint(id: string): Promise<Record<string, unknown> | undefined> {
    const { rows } = await this.#pool.query<{ checkpoint: Record<string, unknown> }>(
      'SELECT checkpoint FROM attractor.checkpoints WHERE run_id = $1',
      [id],
    );
    return rows[0]?.checkpoint;
  }

  /** The `status.json` of run `id`'s stage (a top-level node's is its id), as its executor committed it. */
  async storedStage(id: string, stage: string): Promise<unknown> {
    const { rows } = await this.#pool.query<{ status: unknown }>(
      'SELECT status FROM attractor.stages WHERE run_id = $1 AND stage = $2',
      [id, stage],
    );
    return rows[0]?.status;
  }

  /** The files the node panel shows of run `id`'s stage, as its executor committed them. */
  storedStageFiles(id: string, stage: string): Promise<Record<string, string>> {
    return readStageFiles(this.#pool, id, stage);
  }

  /** Run `id`'s events after sequence number `after`, at most `limit` of them, in order. */
  async eventsAfter(
    id: string,
    after: number,
    limit: number,
  ): Promise<{ seq: number; event: PipelineEvent }[]> {
    const { rows } = await this.#pool.query<{ seq: string; event: PipelineEvent }>(
      'SELECT seq, event FROM attractor.events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
      [id, after, limit],
    );
    return rows.map((row) => ({ seq: Number(row.seq), event: row.event }));
  }

  /**
   * Ask run `id`'s executor, in whichever process it is, to cancel it: delivered by NOTIFY to a live one,
   * and kept on the run's row for the worker that takes it next (its own may be dead).
   */
  async requestCancel(id: string, by: Identity): Promise<void> {
    // The notification says who, after the id and a space (an id has none).
    await this.#pool.query(
      `WITH asked AS (
         UPDATE attractor.runs SET cancel_requested = true, cancel_requested_by = $3
         WHERE id = $1 AND status NOT IN ('completed', 'failed', 'cancelled')
       )
       SELECT pg_notify($2, $1 || ' ' || $3)`,
      [id, CANCEL_CHANNEL, by],
    );
  }

  /** A cancel of run `id` asked for since the run last ended (`requestCancel`), and by whom; else undefined. */
  async cancelRequested(id: string): Promise<{ by: Identity | undefined } | undefined> {
    const { rows } = await this.#pool.query<{
      cancel_requested: boolean;
      cancel_requested_by: string | null;
    }>('SELECT cancel_requested, cancel_requested_by FROM attractor.runs WHERE id = $1', [id]);
    const row = rows[0];
    return row?.cancel_requested === true ? { by: row.cancel_requested_by ?? undefined } : undefined;
  }

  /**
   * Cancel run `id` if no worker has taken it (a queued or waiting run), as one compare-and-set on its
   * row with `RunOwners.take`: either the run is cancelled before any worker owns it, or a worker owns
   * it and this returns false (the cancel must reach that worker: `requestCancel`).
   */
  async cancelUntaken(id: string, by: Identity): Promise<boolean> {
    const current = this.#records.get(id);
    if (!current) throw new AttractorError('RUN_NOT_FOUND', `no run ${id}.`);
    // What this process recorded of the run before (its creation, an answer) goes first.
    await this.#writes.flush();
    const next = RunRecordSchema.parse({
      ...current,
      status: 'cancelled',
      cancelled_by: by,
      updated_at: new Date().toISOString(),
    });
    const { rowCount } = await this.#pool.query(
      `UPDATE attractor.runs SET record = $2, status = 'cancelled'
       WHERE id = $1 AND status NOT IN ('running', 'completed', 'failed', 'cancelled')`,
      [id, next],
    );
    if (rowCount !== 1) return false;
    this.#records.set(id, next);
    await this.#pool.query('SELECT pg_notify($1, $2)', [RUNS_CHANNEL, `${this.#token} ${id}`]);
    this.#hubs.get(id)?.changed();
    return true;
  }

  /** Hear cancel requests for runs (a worker cancels those it executes). */
  onCancelRequested(listener: (id: string, by: Identity | undefined) => void): void {
    this.#cancelListeners.add(listener);
  }

  /** Read run `id` again from the database (a worker given a run this process has not heard of yet). */
  async refresh(id: string): Promise<RunRecord | undefined> {
    await this.#reload(id);
    return this.#records.get(id);
  }

  /**
   * Make `runDir` hold what the database says of the run: its pipeline, newest checkpoint and the
   * finished branches of a fan-out under way, so a resume there continues from them (whichever machine
   * wrote them). A journal left beside it is older than the
   * database's checkpoint or equal to it: it goes. False when the run has no checkpoint yet.
   */
  async materialize(id: string, runDir: string): Promise<boolean> {
    const { rows } = await this.#pool.query<{ checkpoint: { tree_head?: unknown } }>(
      'SELECT checkpoint FROM attractor.checkpoints WHERE run_id = $1',
      [id],
    );
    const row = rows[0];
    if (!row) return false;
    mkdirSync(runDir, { recursive: true });
    writeFileAtomic(path.join(runDir, 'pipeline.dot'), this.source(id));
    removePresentFile(path.join(runDir, 'checkpoint-journal.jsonl'));
    writeFileAtomic(path.join(runDir, 'checkpoint.json'), `${JSON.stringify(row.checkpoint)}\n`);
    await materializeBranchResults(this.#pool, id, runDir);
    const head = row.checkpoint.tree_head;
    await materializeTreeBundles(this.#pool, id, runDir, typeof head === 'string' ? head : undefined);
    return true;
  }

  async adoptFork(from: string, to: string, runDir: string): Promise<void> {
    // The fork's row first: its checkpoint and bundles refer to it.
    await this.flush();
    const checkpoint = readCheckpoint(path.join(runDir, 'checkpoint.json'));
    await this.#pool.query(
      `INSERT INTO attractor.checkpoints (run_id, checkpoint) VALUES ($1, $2)
       ON CONFLICT (run_id) DO UPDATE SET checkpoint = EXCLUDED.checkpoint, written_at = now()`,
      [to, JSON.stringify(checkpoint)],
    );
    await this.#pool.query(
      `INSERT INTO attractor.tree_bundles (run_id, seq, commit, bundle)
       SELECT $2, seq, commit, bundle FROM attractor.tree_bundles WHERE run_id = $1`,
      [from, to],
    );
  }

  /** Resolves once everything recorded so far is committed; rejects with the first write that failed. */
  flush(): Promise<void> {
    return this.#writes.flush();
  }

  async close(): Promise<void> {
    await this.#writes.flush().catch(() => {});
    await this.#listener.end().catch(() => {});
    await this.#pool.end();
  }

  #heard(channel: string, payload: string, onError: (error: Error) => void): void {
    if (channel === RUNS_CHANNEL) {
      const [token, id] = payload.split(' ');
      if (token === this.#token || !id) return;
      void this.#reload(id)
        .then(() => this.#hubs.get(id)?.changed())
        .catch(onError);
    } else if (channel === EVENTS_CHANNEL) {
      const burst = parseEventsPayload(payload);
      if (!burst) return;
      this.#eventCounts.set(burst.runId, Math.max(this.#eventCounts.get(burst.runId) ?? 0, burst.last));
      this.#hubs.get(burst.runId)?.changed(burst.last, burst.first, burst.events);
    } else if (channel === CANCEL_CHANNEL) {
      const space = payload.indexOf(' ');
      const id = space < 0 ? payload : payload.slice(0, space);
      const by = space < 0 ? undefined : payload.slice(space + 1);
      for (const listener of this.#cancelListeners) listener(id, by);
    }
  }

  async #notify(client: pg.PoolClient, id: string): Promise<void> {
    await client.query('SELECT pg_notify($1, $2)', [RUNS_CHANNEL, `${this.#token} ${id}`]);
    // This process's own readers hear it at once.
    queueMicrotask(() => this.#hubs.get(id)?.changed());
  }

  async #reload(id: string): Promise<void> {
    const { rows } = await this.#pool.query<RunRow>(
      'SELECT r.record, r.source, r.attempt, q.questions FROM attractor.runs r LEFT JOIN attractor.questions q ON q.run_id = r.id WHERE r.id = $1',
      [id],
    );
    const row = rows[0];
    if (row) this.#remember(row);
  }

  #remember(row: RunRow): void {
    const record = RunRecordSchema.parse(row.record);
    this.#records.set(record.id, record);
    this.#owners.seen(record.id, row.attempt);
    this.#sources.set(record.id, row.source);
    if (row.questions !== null)
      this.#questions.set(record.id, StoredQuestionSchema.array().parse(row.questions));
    else this.#questions.delete(record.id);
  }
}
