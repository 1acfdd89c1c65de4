import type pg from 'pg';
import type { Fence } from './write-queue.js';

/**
 * Which runs this process owns. A run's owner is the `attempt` on its row: each worker that starts or
 * takes over a run raises it, and every write it then makes of the run is kept only while the row still
 * carries its attempt (docs/decisions/0221-graphile-worker-schedules-runs.md).
 */
export class RunOwners {
  readonly #pool: pg.Pool;
  readonly #onRefused: (id: string) => void;
  /** Each run's attempt as last read from the database. */
  readonly #seen = new Map<string, number>();
  /** Runs this process executes, with the attempt it took them at. */
  readonly #owned = new Map<string, number>();
  /** Each owned run's listener for refused writes, with the attempt it listens for. */
  readonly #listeners = new Map<string, { attempt: number; listener: (id: string) => void }>();

  /** `onRefused` hears every refused write, after the run's own listener. */
  constructor(pool: pg.Pool, onRefused: (id: string) => void) {
    this.#pool = pool;
    this.#onRefused = onRefused;
  }

  /** The run's attempt as a read of its row just found it. */
  seen(id: string, attempt: number): void {
    this.#seen.set(id, attempt);
  }

  /**
   * Raise run `id`'s attempt if it is still the one last read and the run has not ended, in one
   * statement: of two workers reaching the run at once, one owns it, and a run cancelled meanwhile is
   * nobody's. Its `status` column says `running` from then on, which a server's cancel of a queued run
   * finds (`PostgresRunStore.cancelUntaken`). Returns the attempt this process now owns the run at;
   * undefined when another took it first, or it ended.
   */
  async take(id: string): Promise<number | undefined> {
    const { rows } = await this.#pool.query<{ attempt: number }>(
      `UPDATE attractor.runs SET attempt = attempt + 1, status = 'running'
       WHERE id = $1 AND attempt = $2 AND status NOT IN ('completed', 'failed', 'cancelled')
       RETURNING attempt`,
      [id, this.#seen.get(id) ?? 0],
    );
    const taken = rows[0]?.attempt;
    if (taken === undefined) return undefined;
    this.#seen.set(id, taken);
    this.#owned.set(id, taken);
    return taken;
  }

  /**
   * Whether run `id` is still this process's at `attempt` (by default the one it took last): no other
   * worker took it over since, and this process did not take it again (a gate's continuation may start
   * here while the attempt it continues is still letting go).
   */
  async owns(id: string, attempt = this.#owned.get(id)): Promise<boolean> {
    const mine = this.#owned.get(id);
    if (mine === undefined || mine !== attempt) return false;
    const { rows } = await this.#pool.query<{ attempt: number }>(
      'SELECT attempt FROM attractor.runs WHERE id = $1',
      [id],
    );
    return rows[0]?.attempt === mine;
  }

  /** Hear that a write of run `id` was refused: another worker owns it now (one listener per run). */
  onRefused(id: string, attempt: number, listener: (id: string) => void): void {
    this.#listeners.set(id, { attempt, listener });
  }

  /**
   * This process stopped executing run `id` at `attempt`: what it writes of the run later is not an
   * owner's. A later attempt this process took meanwhile stays owned.
   */
  disown(id: string, attempt: number): void {
    if (this.#owned.get(id) !== attempt) return;
    this.#owned.delete(id);
    this.#listeners.delete(id);
  }

  /** The condition a write of run `id` is made under: none when this process does not own it. */
  fence(id: string): Fence | undefined {
    const attempt = this.#owned.get(id);
    if (attempt === undefined) return undefined;
    return {
      runId: id,
      attempt,
      refused: (runId) => {
        const own = this.#listeners.get(runId);
        if (own?.attempt === attempt) own.listener(runId);
        this.#onRefused(runId);
      },
    };
  }
}
