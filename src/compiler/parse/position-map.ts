import type { SourceLocation } from '../ir.js';

/**
 * Maps offsets in the normalised text handed to ts-graphviz back to the user's file, so every location
 * we report is a 1-based line and column of what the user wrote.
 *
 * The normaliser records one segment per chunk it writes: `outStarts[i]` in its output corresponds to
 * `srcStarts[i]` in the source, and offsets inside a chunk advance together (exact for copied text,
 * within a character or two for the few rewritten spots).
 */
export class PositionMap {
  private readonly lineStarts: number[];
  private readonly outStarts: number[] = [];
  private readonly srcStarts: number[] = [];

  constructor(
    private readonly source: string,
    private readonly file?: string,
  ) {
    const starts = [0];
    for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
    this.lineStarts = starts;
  }

  /** Records that output offset `outStart` onwards comes from source offset `srcStart` onwards. */
  addSegment(outStart: number, srcStart: number): void {
    const last = this.outStarts.length - 1;
    if (last >= 0 && this.outStarts[last] === outStart) {
      this.srcStarts[last] = srcStart;
      return;
    }
    this.outStarts.push(outStart);
    this.srcStarts.push(srcStart);
  }

  /** Source offset of an offset in the normalised output. */
  toSourceOffset(outOffset: number): number {
    const i = lastAtMost(this.outStarts, outOffset);
    if (i < 0) return Math.min(outOffset, this.source.length);
    const next = this.srcStarts[i + 1];
    const mapped = this.srcStarts[i]! + (outOffset - this.outStarts[i]!);
    // A rewritten chunk may be longer than the text it replaced: never run into the next chunk's source.
    return Math.min(mapped, next ?? this.source.length, this.source.length);
  }

  /** Location (1-based) of a source offset. */
  locateSource(srcOffset: number): SourceLocation {
    const offset = Math.max(0, Math.min(srcOffset, this.source.length));
    const line = lastAtMost(this.lineStarts, offset);
    const loc: SourceLocation = { line: line + 1, column: offset - this.lineStarts[line]! + 1 };
    if (this.file !== undefined) loc.file = this.file;
    return loc;
  }

  /** Location (1-based, in the user's file) of an offset in the normalised output. */
  locateOutput(outOffset: number): SourceLocation {
    return this.locateSource(this.toSourceOffset(outOffset));
  }
}

/** Index of the last element <= value in an ascending array, or -1. */
function lastAtMost(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= value) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}
