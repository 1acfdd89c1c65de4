import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

/** The journal's name in a run directory: a running run's checkpoints, one JSON line each, newest last. */
export const JOURNAL_FILE = 'checkpoint-journal.jsonl';

/** Past this size the next durable `checkpoint.json` lets the journal start over (docs/decisions.md D23.2). */
export const JOURNAL_COMPACT_BYTES = 1 << 20;

/**
 * The append-only side of a run's checkpoints (docs/decisions.md D23.1). Appending one line and
 * `fdatasync`ing it is what makes a step durable: it costs no new file, no rename and no directory
 * fsync, where an atomic `checkpoint.json` costs all three at every step.
 */
export class CheckpointJournal {
  readonly path: string;
  readonly #runDir: string;
  readonly #durable: boolean;
  #fd: number | undefined;
  #size = 0;

  constructor(runDir: string, options: { durable: boolean }) {
    this.#runDir = runDir;
    this.path = join(runDir, JOURNAL_FILE);
    this.#durable = options.durable;
  }

  /** Bytes appended since the journal was opened or last started over. */
  get size(): number {
    return this.#size;
  }

  /** Append one checkpoint (a JSON line ending in `\n`), durably when the run is durable. */
  append(line: string): void {
    const fd = this.#fd ?? this.#open();
    this.#size += writeSync(fd, line);
    if (this.#durable) fdatasyncSync(fd);
  }

  /**
   * Drop every line: only after a durable `checkpoint.json` holds the newest of them. Not fsync'd: lost
   * in a power cut, the old lines come back, and their newest is that same checkpoint.
   */
  startOver(): void {
    if (this.#fd === undefined) return;
    ftruncateSync(this.#fd, 0);
    this.#size = 0;
  }

  /** Close and delete the journal: the run left a durable `checkpoint.json` holding its newest line. */
  remove(): void {
    this.close();
    rmSync(this.path, { force: true });
  }

  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }

  #open(): number {
    const fd = openSync(this.path, 'a+');
    const { size } = fstatSync(fd);
    // A crash can leave half a line: end it, so the next line is not glued to it (readers skip it).
    if (size > 0 && lastByte(fd, size) !== 0x0a) writeSync(fd, '\n');
    this.#size = 0;
    this.#fd = fd;
    if (this.#durable) {
      // The file's name must survive a power cut as well as its lines (the manifest written just before
      // rides on this fsync too, docs/decisions.md D23.1).
      const dir = openSync(this.#runDir, 'r');
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
    }
    return fd;
  }
}

function lastByte(fd: number, size: number): number {
  const buffer = Buffer.alloc(1);
  readSync(fd, buffer, 0, 1, size - 1);
  return buffer[0] ?? 0x0a;
}

/**
 * The newest complete line of a run's journal, as text; undefined when there is no journal or no
 * complete line in it. A line cut short by a crash does not parse and is skipped.
 */
export function newestJournalLine(runDir: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(runDir, JOURNAL_FILE), 'utf8');
  } catch {
    return undefined;
  }
  let end = text.length;
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end).trim();
    if (line.length > 0) {
      try {
        JSON.parse(line);
        return line;
      } catch {
        // A torn line: the one before it is the newest complete one.
      }
    }
    end = start - 1;
  }
  return undefined;
}
