import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The run's inspection messages as JSON Lines on disk (`--inspect-log FILE`, else a temporary file
 * removed at the end): the record a client that connects late is replayed from, however long the run
 * (no message is kept in memory). Lines are appended synchronously, so the file holds every message
 * sent so far whenever a client connects.
 */
export class InspectionLog {
  readonly path: string;
  readonly #fd: number;
  readonly #temporary: string | undefined;
  #size = 0;

  private constructor(file: string, temporary: string | undefined) {
    this.path = file;
    this.#temporary = temporary;
    this.#fd = openSync(file, 'w');
  }

  static open(file: string | undefined): InspectionLog {
    if (file !== undefined) return new InspectionLog(file, undefined);
    const dir = mkdtempSync(path.join(tmpdir(), 'attractor-inspect-'));
    return new InspectionLog(path.join(dir, 'inspection.jsonl'), dir);
  }

  /** Bytes written so far: the end of what a client connecting now must be replayed. */
  get size(): number {
    return this.#size;
  }

  append(line: string): void {
    const text = `${line}\n`;
    writeSync(this.#fd, text);
    this.#size += Buffer.byteLength(text);
  }

  /** Calls `onLine` for every line in the first `end` bytes, in order, awaiting it (backpressure). */
  async replay(end: number, onLine: (line: string) => void | Promise<void>): Promise<void> {
    if (end === 0) return;
    const lines = createInterface({ input: createReadStream(this.path, { start: 0, end: end - 1 }) });
    for await (const line of lines) if (line !== '') await onLine(line);
  }

  close(): void {
    closeSync(this.#fd);
    if (this.#temporary !== undefined) rmSync(this.#temporary, { recursive: true, force: true });
  }
}
