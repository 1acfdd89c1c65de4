/** Keeps only the last `limit` bytes written to it, so a chatty command cannot exhaust memory. */
export class TailBuffer {
  readonly #limit: number;
  #chunks: Buffer[] = [];
  #size = 0;
  #dropped = false;

  constructor(limit: number) {
    this.#limit = limit;
  }

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    while (this.#size - (this.#chunks[0]?.length ?? 0) >= this.#limit && this.#chunks.length > 1) {
      this.#size -= this.#chunks.shift()!.length;
      this.#dropped = true;
    }
  }

  /** True once anything was dropped from the front. */
  get truncated(): boolean {
    return this.#dropped || this.#size > this.#limit;
  }

  /** The last `limit` bytes as UTF-8; a character split by the cut is dropped rather than garbled. */
  toString(): string {
    const all = Buffer.concat(this.#chunks);
    const tail = all.length > this.#limit ? all.subarray(all.length - this.#limit) : all;
    let start = 0;
    // Skip UTF-8 continuation bytes (10xxxxxx) left at the front by the cut.
    if (tail.length < all.length) while (start < tail.length && ((tail[start] ?? 0) & 0xc0) === 0x80) start++;
    return tail.subarray(start).toString('utf8');
  }
}
