/** Runs a task when one of a fixed number of slots is free; the task starts at once when one is. */
export type ConcurrencyLimit = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * At most `slots` tasks at once, started in the order they were given; a task given while a slot is
 * free starts synchronously (up to its first wait).
 */
export function concurrencyLimit(slots: number): ConcurrencyLimit {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = (): void => {
    running--;
    waiting.shift()?.();
  };
  return <T>(task: () => Promise<T>): Promise<T> => {
    const start = (): Promise<T> => {
      running++;
      let run: Promise<T>;
      try {
        run = task();
      } catch (error) {
        run = Promise.reject(error);
      }
      return run.finally(release);
    };
    if (running < slots) return start();
    return new Promise<T>((resolve, reject) => waiting.push(() => start().then(resolve, reject)));
  };
}
