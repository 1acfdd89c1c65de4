import type { PositionMap } from './position-map.js';

/**
 * The prelexer's output: the source copied through in order, except the spans replaced, each copy and
 * each replacement recorded in the {@link PositionMap} so errors point at the user's text.
 */
export class RewrittenText {
  private readonly out: string[] = [];
  private outLength = 0;
  private copyFrom = 0;

  constructor(
    private readonly source: string,
    private readonly map: PositionMap,
  ) {}

  /** Copies the source up to `to` (a span already passed is not copied twice). */
  flush(to: number): void {
    if (to > this.copyFrom) {
      this.map.addSegment(this.outLength, this.copyFrom);
      this.out.push(this.source.slice(this.copyFrom, to));
      this.outLength += to - this.copyFrom;
    }
    this.copyFrom = Math.max(this.copyFrom, to);
  }

  /** Writes `text` in place of the source from `from` to `to`. */
  replace(from: number, to: number, text: string): void {
    this.flush(from);
    this.map.addSegment(this.outLength, from);
    this.out.push(text);
    this.outLength += text.length;
    this.copyFrom = to;
  }

  /** The whole rewritten text, the rest of the source copied. */
  finish(): string {
    this.flush(this.source.length);
    return this.out.join('');
  }
}
