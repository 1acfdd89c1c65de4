/**
 * An unbounded single-consumer async queue: the loop pushes, the caller of submit() iterates at its own pace
 * (a queue between producer and consumer). Ending the iteration early (break) detaches the
 * consumer; later pushes are dropped, the producer never blocks.
 */
export class EventQueue<T> implements AsyncIterableIterator<T> {
  private readonly items: T[] = [];
  private head = 0;
  private waiting: ((result: IteratorResult<T, undefined>) => void) | undefined;
  private closed = false;

  push(item: T): void {
    if (this.closed) return;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting({ done: false, value: item });
      return;
    }
    this.items.push(item);
  }

  /** No more items; the consumer finishes after draining what is queued. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.({ done: true, value: undefined });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    const items = this.items;
    if (this.head < items.length) {
      const value = items[this.head] as T;
      // A consumer that keeps up empties the queue every few items: start it over then, so the queue holds
      // no item it handed out (they would otherwise live on, and be copied by every scavenge, until the end).
      if (++this.head === items.length) {
        items.length = 0;
        this.head = 0;
      } else if (this.head > 1024 && this.head * 2 > items.length) {
        items.splice(0, this.head);
        this.head = 0;
      }
      return Promise.resolve({ done: false, value });
    }
    if (this.closed) return Promise.resolve({ done: true, value: undefined });
    return new Promise(this.wait);
  }

  /** The executor of every wait (one function for the queue, not one per item). */
  private readonly wait = (resolve: (result: IteratorResult<T, undefined>) => void): void => {
    this.waiting = resolve;
  };

  return(): Promise<IteratorResult<T, undefined>> {
    this.items.length = 0;
    this.head = 0;
    this.close();
    return Promise.resolve({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
