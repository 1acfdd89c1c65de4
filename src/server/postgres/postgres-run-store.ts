import path from 'node:path';
import pg from 'pg';
import type { RunRecordSink } from '../../run/mirrored-run-recorder.js';
import { AttractorError } from '../../shared/errors.js';
import type { PipelineEvent } from '../../shared/pipeline-event.js';
import { type RunRecord, RunRecordSchema, type StoredQuestion, StoredQuestionSchema } from '../run-record.js';
import type { ListRunsQuery, RunPage, RunStore } from '../run-store.js';
import { migrate } from './postgres-schema.js';
import { WriteQueue } from './write-queue.js';

const MAX_PAGE = 500;
/** Other processes sharing the database say on this channel which run they changed. */
const RUNS_CHANNEL = 'attractor_runs';

/**
 * PostgreSQL as the system of record (`attractor serve --store postgres://…`): run records, their DOT
 * sources, questions and answers, and, through `recordSink`, each run's events, newest checkpoint and
 * stage records. The server's interface is synchronous, so the store answers from memory (loaded at
 * `open`, kept current from other servers by LISTEN) and writes behind, in order, on one queue that
 * commits whatever a turn of the event loop produced in one transaction; `flush()` waits for it. A run's
 * working files stay in its run directory under the data folder.
 */
export class PostgresRunStore implements RunStore {
  readonly #root: string;
  readonly #pool: pg.Pool;
  readonly #listener: pg.Client;
  readonly #writes: WriteQueue;
  readonly #records = new Map<string, RunRecord>();
  readonly #sources = new Map<string, string>();
  readonly #questions = new Map<string, StoredQuestion[]>();

  private constructor(root: string, pool: pg.Pool, listener: pg.Client, onError: (error: Error) => void) {
    this.#root = root;
    this.#pool = pool;
    this.#listener = listener;
    this.#writes = new WriteQueue(pool, onError);
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
      await listener.query(`LISTEN ${RUNS_CHANNEL}`);
      listener.on('notification', (message) => {
        if (message.channel === RUNS_CHANNEL && message.payload && message.processId !== store.#backendPid)
          void store.#reload(message.payload).catch(onError);
      });
      store.#backendPid =
        (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0;
      const { rows } = await pool.query<{ record: unknown; source: string; questions: unknown }>(
        'SELECT r.record, r.source, q.questions FROM attractor.runs r LEFT JOIN attractor.questions q ON q.run_id = r.id',
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

  // Our own notifications come back to our listener too: only other processes' need a reload.
  #backendPid = 0;

  runDirFor(id: string): string {
    return path.join(this.#root, id, 'run');
  }

  create(record: RunRecord, source: string): void {
    if (this.#records.has(record.id))
      throw new AttractorError('RUN_EXISTS', `run ${record.id} already exists.`);
    this.#records.set(record.id, record);
    this.#sources.set(record.id, source);
    this.#writes.push(async (client) => {
      await client.query(
        'INSERT INTO attractor.runs (id, record, status, created_at, source) VALUES ($1, $2, $3, $4, $5)',
        [record.id, record, record.status, record.created_at, source],
      );
      await notify(client, record.id);
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
      await client.query('UPDATE attractor.runs SET record = $2, status = $3 WHERE id = $1', [
        id,
        next,
        next.status,
      ]);
      await notify(client, id);
    });
    return next;
  }

  list(query: ListRunsQuery = {}): RunPage {
    const limit = Math.min(Math.max(query.limit ?? 50, 1), MAX_PAGE);
    const all = [...this.#records.values()]
      .filter((r) => query.status === undefined || r.status === query.status)
      .sort(newestFirst);
    const start = query.cursor ? all.findIndex((r) => cursorOf(r) === query.cursor) + 1 : 0;
    const runs = all.slice(start, start + limit);
    const last = runs.at(-1);
    return start + limit < all.length && last ? { runs, next_cursor: cursorOf(last) } : { runs };
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
      await notify(client, id);
    });
  }

  /**
   * Where run `id` keeps its events, checkpoint and stage records: on the store's write queue, so they
   * are committed in the order the run made them and before anything the server records after them.
   */
  recordSink(id: string): RunRecordSink {
    const events: PipelineEvent[] = [];
    const stages = new Map<string, unknown>();
    let checkpoint: string | undefined;
    let queued = false;
    const queue = (): void => {
      if (queued) return;
      queued = true;
      this.#writes.push(async (client) => {
        queued = false;
        const batch = events.splice(0);
        const stageRows = [...stages];
        stages.clear();
        const text = checkpoint;
        checkpoint = undefined;
        if (batch.length > 0) {
          await client.query(
            `INSERT INTO attractor.events (run_id, seq, event)
             SELECT $1, base.last + t.ord, t.event
             FROM (SELECT coalesce(max(seq), 0) AS last FROM attractor.events WHERE run_id = $1) base,
                  unnest($2::jsonb[]) WITH ORDINALITY AS t(event, ord)`,
            [id, batch.map((e) => JSON.stringify(e))],
          );
        }
        for (const [stage, status] of stageRows) {
          await client.query(
            `INSERT INTO attractor.stages (run_id, stage, status) VALUES ($1, $2, $3)
             ON CONFLICT (run_id, stage) DO UPDATE SET status = EXCLUDED.status`,
            [id, stage, JSON.stringify(status)],
          );
        }
        if (text !== undefined) {
          await client.query(
            `INSERT INTO attractor.checkpoints (run_id, checkpoint) VALUES ($1, $2)
             ON CONFLICT (run_id) DO UPDATE SET checkpoint = EXCLUDED.checkpoint, written_at = now()`,
            [id, text],
          );
        }
      });
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
      settled: () => this.#writes.flush(),
    };
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

  async #reload(id: string): Promise<void> {
    const { rows } = await this.#pool.query<{ record: unknown; source: string; questions: unknown }>(
      'SELECT r.record, r.source, q.questions FROM attractor.runs r LEFT JOIN attractor.questions q ON q.run_id = r.id WHERE r.id = $1',
      [id],
    );
    const row = rows[0];
    if (row) this.#remember(row);
  }

  #remember(row: { record: unknown; source: string; questions: unknown }): void {
    const record = RunRecordSchema.parse(row.record);
    this.#records.set(record.id, record);
    this.#sources.set(record.id, row.source);
    if (row.questions !== null)
      this.#questions.set(record.id, StoredQuestionSchema.array().parse(row.questions));
  }
}

async function notify(client: pg.PoolClient, id: string): Promise<void> {
  await client.query('SELECT pg_notify($1, $2)', [RUNS_CHANNEL, id]);
}

function newestFirst(a: RunRecord, b: RunRecord): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.id < b.id ? 1 : -1;
}

const cursorOf = (r: RunRecord): string => Buffer.from(r.id).toString('base64url');
