import { describe, expect, it } from 'vitest';
import { EventQueue } from '../../../src/agent/session/event-queue.js';

describe('EventQueue', () => {
  it('hands items over in order, whether the consumer waits for them or they wait for it', async () => {
    const queue = new EventQueue<number>();
    const seen: number[] = [];
    const consumed = (async () => {
      for await (const item of queue) seen.push(item);
    })();
    // Pushes land while the consumer waits, in bursts it reads later, and across many resets of the queue.
    let next = 0;
    for (let round = 0; round < 700; round++) {
      for (let i = 0; i < round % 4; i++) queue.push(next++);
      await Promise.resolve();
    }
    for (let i = 0; i < 3000; i++) queue.push(next++);
    queue.close();
    await consumed;
    expect(seen).toEqual(Array.from({ length: next }, (_, i) => i));
  });

  it('finishes after the queued items once closed, and stays done', async () => {
    const queue = new EventQueue<string>();
    queue.push('a');
    queue.push('b');
    queue.close();
    queue.push('dropped');
    expect(await queue.next()).toEqual({ done: false, value: 'a' });
    expect(await queue.next()).toEqual({ done: false, value: 'b' });
    expect(await queue.next()).toEqual({ done: true, value: undefined });
    expect(await queue.next()).toEqual({ done: true, value: undefined });
  });

  it('a consumer that stops early detaches: later pushes are dropped', async () => {
    const queue = new EventQueue<number>();
    queue.push(1);
    queue.push(2);
    for await (const item of queue) {
      expect(item).toBe(1);
      break;
    }
    queue.push(3);
    expect(queue.isClosed).toBe(true);
    expect(await queue.next()).toEqual({ done: true, value: undefined });
  });

  it('a waiting consumer is woken by close', async () => {
    const queue = new EventQueue<number>();
    const pending = queue.next();
    queue.close();
    expect(await pending).toEqual({ done: true, value: undefined });
  });
});
