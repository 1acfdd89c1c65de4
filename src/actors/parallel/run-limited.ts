/**
 * Run `work` on each item in order, at most `limit` at once; once `stop()` says so no further item
 * starts. The first `limit` items start before this returns (synchronously, up to their first wait).
 */
export function runLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
  stop: () => boolean,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let item = items[next++]; item !== undefined && !stop(); item = items[next++]) await work(item);
  };
  return Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker)).then(() => {});
}
