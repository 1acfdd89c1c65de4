import { concurrencyLimit } from '../../shared/concurrency-limit.js';

/**
 * Run `work` on each item in order, at most `limit` at once; once `stop()` says so no further item
 * starts. The first `limit` items start before this returns (synchronously, up to their first wait).
 */
export async function runLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
  stop: () => boolean,
): Promise<void> {
  const slot = concurrencyLimit(limit);
  await Promise.all(items.map((item) => slot(async () => (stop() ? undefined : work(item)))));
}
