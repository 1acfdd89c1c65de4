import { describe, expect, it } from 'vitest';
import { concurrencyLimit } from '../../src/shared/concurrency-limit.js';

/** A task that waits until released, recording how many run at once. */
function gate() {
  let running = 0;
  let most = 0;
  const releases: Array<() => void> = [];
  const task = (id: number, order: number[]) => () => {
    order.push(id);
    running++;
    most = Math.max(most, running);
    return new Promise<number>((resolve) =>
      releases.push(() => {
        running--;
        resolve(id);
      }),
    );
  };
  return { task, releases, most: () => most };
}

describe('concurrencyLimit', () => {
  it('starts tasks at once while a slot is free, in order, never more than the slots', async () => {
    const limit = concurrencyLimit(2);
    const { task, releases, most } = gate();
    const order: number[] = [];
    const all = [1, 2, 3, 4, 5].map((id) => limit(task(id, order)));
    // The first two started synchronously, the rest wait.
    expect(order).toEqual([1, 2]);
    while (releases.length > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5]);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect(most()).toBe(2);
  });

  it('frees the slot of a task that throws or rejects', async () => {
    const limit = concurrencyLimit(1);
    await expect(
      limit(() => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    await expect(limit(() => Promise.reject(new Error('async')))).rejects.toThrow('async');
    expect(await limit(async () => 'next')).toBe('next');
  });
});
