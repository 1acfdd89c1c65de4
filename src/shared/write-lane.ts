import { fdatasync } from 'node:fs';
// The module's own binding, not the global: a test's fake timers must not hold the disk's writes back.
import { setImmediate } from 'node:timers';
import { promisify } from 'node:util';

const fdatasyncAsync = promisify(fdatasync);

/** What a lane's operation may ask of the batch it runs in. */
export interface CommitBatch {
  /** Whether what the lane writes must survive a power cut (a durable run): fsync only then. */
  readonly durable: boolean;
  /** In a durable lane, fdatasync `fd` once, after the batch's last operation (every write to it shares it). */
  syncAtEnd(fd: number): void;
  /** The end-of-batch fdatasync of `fd`, now (before closing it). */
  syncNow(fd: number): Promise<void>;
}

/**
 * An operation on the disk, run in its lane's order on libuv's thread pool (async fs), never on the
 * loop: a create or a rename waits for the file system's journal, which a busy disk can hold for
 * milliseconds, and every other run in the process would wait with it.
 */
export type CommitOp = (batch: CommitBatch) => Promise<void> | void;

/** The first operation of a lane that failed: what it was doing, in words, and what the disk said. */
export class CommitFailure extends Error {
  constructor(
    readonly what: string,
    override readonly cause: unknown,
  ) {
    super(`${what} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

export interface WriteLaneOptions {
  /** fsync what the lane's files ask to be fsync'd (default true); `false` writes the same files without. */
  durable?: boolean;
  /** The lane's first failure, once (nobody may be waiting for it). */
  onFailure?: (failure: CommitFailure) => void;
}

/**
 * One ordered stream of writes (a run's, or a stored run's records): operations run one after another,
 * in the order they were pushed, so a file is never ahead of what it depends on. What is pushed while a
 * batch runs waits for the next one; a batch starts on the turn after its first push, so the lanes given
 * work in one turn start together and their fsyncs reach the file system's journal together (a group
 * commit). After a failure the lane runs nothing more: `settled()` rejects with it.
 */
export class WriteLane {
  readonly durable: boolean;
  readonly #onFailure: (failure: CommitFailure) => void;
  #queued: { what: string; op: CommitOp }[] = [];
  #running = false;
  #scheduled = false;
  #pushed = 0;
  #done = 0;
  #failure: CommitFailure | undefined;
  readonly #waiters: { upTo: number; resolve: () => void; reject: (failure: CommitFailure) => void }[] = [];

  constructor(options: WriteLaneOptions = {}) {
    this.durable = options.durable ?? true;
    this.#onFailure = options.onFailure ?? (() => {});
  }

  /** The failure that stopped the lane, if one did. */
  get failure(): CommitFailure | undefined {
    return this.#failure;
  }

  /** Operations pushed so far (a writer tells from it whether anything was queued after its own). */
  get pushedCount(): number {
    return this.#pushed;
  }

  /** Whether everything pushed so far is done. */
  get idle(): boolean {
    return this.#done === this.#pushed;
  }

  /** Queue `op`; `what` names it in a failure ("writing <file>"). Dropped once the lane has failed. */
  push(what: string, op: CommitOp): void {
    if (this.#failure) return;
    this.#queued.push({ what, op });
    this.#pushed += 1;
    this.#schedule();
  }

  /** Resolves once every operation pushed before the call has run (fsyncs included); rejects after a failure. */
  settled(): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#done >= this.#pushed) return Promise.resolve();
    return new Promise((resolve, reject) => this.#waiters.push({ upTo: this.#pushed, resolve, reject }));
  }

  /**
   * Drop what is queued and take nothing more (a run that never started: nothing of it may appear
   * later). Waiters resolve: nothing of what they waited for will be written.
   */
  discard(): void {
    this.#queued = [];
    this.#failure ??= new CommitFailure('writing', new Error('the writes were discarded'));
    this.#done = this.#pushed;
    for (const waiter of this.#waiters.splice(0)) waiter.resolve();
  }

  #schedule(): void {
    if (this.#running || this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#running || this.#queued.length === 0 || this.#failure) return;
      const ops = this.#queued;
      this.#queued = [];
      this.#running = true;
      void this.#run(ops);
    });
  }

  async #run(ops: { what: string; op: CommitOp }[]): Promise<void> {
    const syncs = new Set<number>();
    let current = 'writing';
    const batch: CommitBatch = {
      durable: this.durable,
      syncAtEnd: (fd) => {
        if (this.durable) syncs.add(fd);
      },
      syncNow: async (fd) => {
        if (syncs.delete(fd)) await fdatasyncAsync(fd);
      },
    };
    try {
      for (const { what, op } of ops) {
        current = what;
        await op(batch);
      }
      current = 'syncing what was written';
      await Promise.all([...syncs].map((fd) => fdatasyncAsync(fd)));
    } catch (cause) {
      this.#fail(new CommitFailure(current, cause));
      return;
    }
    this.#running = false;
    this.#done += ops.length;
    for (let i = this.#waiters.length - 1; i >= 0; i--) {
      const waiter = this.#waiters[i];
      if (waiter && waiter.upTo <= this.#done) {
        this.#waiters.splice(i, 1);
        waiter.resolve();
      }
    }
    if (this.#queued.length > 0) this.#schedule();
  }

  #fail(failure: CommitFailure): void {
    this.#failure = failure;
    this.#queued = [];
    this.#running = false;
    for (const waiter of this.#waiters.splice(0)) waiter.reject(failure);
    this.#onFailure(failure);
  }
}
