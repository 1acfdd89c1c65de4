import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import { type WebhookDelivery, WebhookDeliverySchema } from './deliver-webhook.js';
import type { DeliveryFailed } from './delivery-failed.js';
import { type DeliveryPolicy, nextAttemptDelayMs } from './delivery-policy.js';

const PendingSchema = z.strictObject({
  delivery: WebhookDeliverySchema,
  attempts: z.number().int().nonnegative(),
  /** Epoch ms of the next attempt. */
  next_at: z.number(),
  last_error: z.string().optional(),
});
type Pending = z.infer<typeof PendingSchema>;

/** A delivery holds its webhook URL, whose path is often the receiver's secret: the owner's only. */
const PRIVATE = 0o600;

export interface OutboxOptions {
  /** `<data dir>/notifications`: `pending/` holds what is still to be sent, `failed/` what never was. */
  dir: string;
  deliver: (delivery: WebhookDelivery) => Promise<void>;
  /** Told once per delivery that failed its last attempt. */
  onFailed: (failed: DeliveryFailed) => void;
  policy?: DeliveryPolicy;
}

/**
 * Webhook deliveries of a server without a database: each a file in `pending/` (written atomically
 * before anything is sent, so a restart loses none), sent in the background with retries and
 * backoff, removed once delivered, moved to `failed/` after the last attempt. Never blocks a run: `add`
 * only writes a small file.
 */
export class FileOutbox {
  readonly #options: OutboxOptions;
  readonly #pending: string;
  readonly #failed: string;
  #timer: NodeJS.Timeout | undefined;
  #pumping: Promise<void> | undefined;
  #closed = false;

  constructor(options: OutboxOptions) {
    this.#options = options;
    this.#pending = path.join(options.dir, 'pending');
    this.#failed = path.join(options.dir, 'failed');
    mkdirSync(this.#pending, { recursive: true });
  }

  /** Queues a delivery (once: the same id again is the same delivery) and starts sending. */
  add(delivery: WebhookDelivery): void {
    const file = this.#fileOf(delivery.id);
    // One server owns its data folder: a check is enough to keep the same delivery from being queued twice.
    if (existsSync(file)) return;
    const entry: Pending = { delivery, attempts: 0, next_at: Date.now() };
    writeFileAtomic(file, `${JSON.stringify(entry)}\n`, { durable: true, mode: PRIVATE });
    this.#wake(0);
  }

  /** Sends what an earlier process left pending. */
  start(): void {
    this.#wake(0);
  }

  /** Resolves once nothing is pending or in flight (tests, drain). */
  async idle(): Promise<void> {
    while (!this.#closed) {
      await this.#pumping;
      if (this.#entries().length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#pumping;
  }

  #fileOf(id: string): string {
    return path.join(this.#pending, `${createHash('sha256').update(id).digest('hex').slice(0, 32)}.json`);
  }

  #entries(): string[] {
    return readdirSync(this.#pending).filter((name) => name.endsWith('.json'));
  }

  #wake(inMs: number): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#pumping ??= this.#pump().finally(() => {
        this.#pumping = undefined;
      });
    }, inMs);
    this.#timer.unref();
  }

  async #pump(): Promise<void> {
    let next = Number.POSITIVE_INFINITY;
    for (const name of this.#entries()) {
      if (this.#closed) return;
      const file = path.join(this.#pending, name);
      const entry = readPending(file);
      if (entry === undefined) continue;
      if (entry.next_at > Date.now()) {
        next = Math.min(next, entry.next_at);
        continue;
      }
      const retryAt = await this.#attempt(file, entry);
      if (retryAt !== undefined) next = Math.min(next, retryAt);
    }
    if (Number.isFinite(next)) this.#wake(Math.max(0, next - Date.now()));
  }

  /** One attempt at one delivery; the time of its next attempt when there is one. */
  async #attempt(file: string, entry: Pending): Promise<number | undefined> {
    try {
      await this.#options.deliver(entry.delivery);
      rmSync(file, { force: true });
      return undefined;
    } catch (error) {
      const attempts = entry.attempts + 1;
      const message = error instanceof Error ? error.message : String(error);
      const delay = nextAttemptDelayMs(this.#options.policy ?? {}, attempts);
      if (delay === undefined) {
        mkdirSync(this.#failed, { recursive: true });
        renameSync(file, path.join(this.#failed, path.basename(file)));
        this.#options.onFailed({ delivery: entry.delivery, attempts, error: message });
        return undefined;
      }
      const next_at = Date.now() + delay;
      writeFileAtomic(file, `${JSON.stringify({ ...entry, attempts, next_at, last_error: message })}\n`, {
        durable: true,
        mode: PRIVATE,
      });
      return next_at;
    }
  }
}

/** A pending file, or undefined when another process took it or it cannot be read (left for a person). */
function readPending(file: string): Pending | undefined {
  try {
    return PendingSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return undefined;
  }
}
