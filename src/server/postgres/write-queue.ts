import type pg from 'pg';

type Write = (client: pg.PoolClient) => Promise<void>;

/**
 * Writes committed in the order they were pushed: everything pushed during one turn of the event loop
 * goes to the database in one transaction (a group commit), the next batch only after it. The first
 * failure is kept: `flush()` rejects with it from then on, and `onError` hears it once.
 */
export class WriteQueue {
  readonly #pool: pg.Pool;
  readonly #onError: (error: Error) => void;
  #pending: Write[] = [];
  #running: Promise<void> = Promise.resolve();
  #scheduled = false;
  #failure: Error | undefined;

  constructor(pool: pg.Pool, onError: (error: Error) => void) {
    this.#pool = pool;
    this.#onError = onError;
  }

  push(write: Write): void {
    this.#pending.push(write);
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
      for (const write of batch) await write(client);
      await client.query('COMMIT');
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
