import type pg from 'pg';

/** Writes of one batch made together, once, after the batch's other writes (`Batch.gather`). */
export interface Gathered {
  write(client: pg.PoolClient): Promise<void>;
}

/** The transaction a write is part of. */
export interface Batch {
  /**
   * The batch's one `Gathered` under `key`, made by `make` at its first use: what several writes add to
   * it is written in one statement after every other write of the batch, before the commit.
   */
  gather<T extends Gathered>(key: symbol, make: () => T): T;
}

type Write = (client: pg.PoolClient, batch: Batch) => Promise<void>;

/**
 * A write made by a run's owner: kept only while the run's row still carries the owner's `attempt`
 * (another worker taking the run over raises it). A refused write is skipped, not an error: `refused`
 * hears it, and the rest of the batch commits.
 */
export interface Fence {
  runId: string;
  attempt: number;
  refused: (runId: string) => void;
}

/**
 * Writes committed in the order they were pushed: everything pushed during one turn of the event loop
 * goes to the database in one transaction (a group commit), the next batch only after it. The first
 * failure is kept: `flush()` rejects with it from then on, and `onError` hears it once.
 */
export class WriteQueue {
  readonly #pool: pg.Pool;
  readonly #onError: (error: Error) => void;
  #pending: { write: Write; fence: Fence | undefined }[] = [];
  #running: Promise<void> = Promise.resolve();
  #scheduled = false;
  #failure: Error | undefined;

  constructor(pool: pg.Pool, onError: (error: Error) => void) {
    this.#pool = pool;
    this.#onError = onError;
  }

  push(write: Write, fence?: Fence): void {
    this.#pending.push({ write, fence });
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#running = this.#running.then(() => this.#commit());
    });
  }

  async flush(): Promise<void> {
    // A push in this turn is scheduled for the next one: wait for it to join the chain.
    if (this.#scheduled) await new Promise((resolve) => setImmediate(resolve));
    await this.#running;
    if (this.#failure) throw this.#failure;
  }

  async #commit(): Promise<void> {
    this.#scheduled = false;
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0 || this.#failure) return;
    const client = await this.#pool.connect().catch((error: Error) => {
      this.#fail(error);
      return undefined;
    });
    if (!client) return;
    try {
      await client.query('BEGIN');
      const owners = await lockOwners(client, batch);
      const refused = new Map<string, Fence>();
      const gathered = new Map<symbol, Gathered>();
      const context: Batch = {
        gather: <T extends Gathered>(key: symbol, make: () => T): T => {
          let value = gathered.get(key);
          if (!value) {
            value = make();
            gathered.set(key, value);
          }
          return value as T;
        },
      };
      for (const { write, fence } of batch) {
        if (fence && owners.get(fence.runId) !== fence.attempt) {
          refused.set(fence.runId, fence);
          continue;
        }
        await write(client, context);
      }
      for (const value of gathered.values()) await value.write(client);
      await client.query('COMMIT');
      for (const fence of refused.values()) fence.refused(fence.runId);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      this.#fail(error as Error);
    } finally {
      client.release();
    }
  }

  #fail(error: Error): void {
    if (this.#failure) return;
    this.#failure = error;
    this.#onError(error);
  }
}

/**
 * The current attempt of every run the batch writes as an owner, its row locked until the commit: a
 * takeover (which raises the attempt) waits for this batch or this batch sees it, never half of each.
 * Locked in id order, so two workers' batches never wait on each other in a circle.
 */
async function lockOwners(
  client: pg.PoolClient,
  batch: readonly { fence: Fence | undefined }[],
): Promise<Map<string, number>> {
  const ids = [...new Set(batch.flatMap(({ fence }) => (fence ? [fence.runId] : [])))].sort();
  if (ids.length === 0) return new Map();
  const { rows } = await client.query<{ id: string; attempt: number }>(
    'SELECT id, attempt FROM attractor.runs WHERE id = ANY($1) ORDER BY id FOR NO KEY UPDATE',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.attempt]));
}
