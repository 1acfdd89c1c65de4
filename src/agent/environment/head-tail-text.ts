/**
 * Text that keeps at most its first `headLimit` and last `tailLimit` characters, counting what it drops
 * from the middle, so a command printing gigabytes costs a bounded amount of memory.
 */
export class HeadTailText {
  readonly #headLimit: number;
  readonly #tailLimit: number;
  #head = '';
  #tail: string[] = [];
  #tailLength = 0;
  #dropped = 0;

  constructor(headLimit: number, tailLimit: number) {
    this.#headLimit = headLimit;
    this.#tailLimit = tailLimit;
  }

  push(text: string): void {
    let rest = text;
    if (this.#head.length < this.#headLimit) {
      const room = this.#headLimit - this.#head.length;
      this.#head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest.length === 0) return;
    this.#tail.push(rest);
    this.#tailLength += rest.length;
    // Drop whole chunks while the rest still covers the limit; the final cut happens in toString().
    while (this.#tail.length > 1 && this.#tailLength - this.#tail[0]!.length >= this.#tailLimit) {
      const first = this.#tail.shift()!;
      this.#tailLength -= first.length;
      this.#dropped += first.length;
    }
  }

  /** Characters dropped from the middle so far. */
  get omitted(): number {
    return this.#dropped + Math.max(0, this.#tailLength - this.#tailLimit);
  }

  /** Head and tail; when something was dropped, a note of how much sits between them. */
  toString(): string {
    const tail = this.#tail.join('');
    const kept = tail.length > this.#tailLimit ? tail.slice(tail.length - this.#tailLimit) : tail;
    const omitted = this.omitted;
    if (omitted === 0) return this.#head + kept;
    return `${this.#head}\n[... ${omitted} characters omitted: too much output to keep in memory ...]\n${kept}`;
  }
}
