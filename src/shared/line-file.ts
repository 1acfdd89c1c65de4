import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export interface LineFile {
  /** Append one line (no newline in it) with a single write; with `durable`, fsync'd before returning. */
  append(line: string): void;
  close(): void;
}

/**
 * A file of records, one per line, each appended with one `write` — a record is on disk whole or, if the
 * process died in the middle of it, as a torn last line that readers skip (a line that does not parse).
 * Opened on the first append (its folder made if missing); a torn line an earlier process left is ended
 * first, so the next record is a line of its own. With `durable`, every record is fsync'd, and the folder
 * once when the file is new, so the record survives a power loss as a checkpoint does.
 */
export function openLineFile(path: string, options: { durable?: boolean } = {}): LineFile {
  const durable = options.durable ?? true;
  let fd: number | undefined;
  const open = (): number => {
    let opened: number;
    try {
      opened = openSync(path, 'a+');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(dirname(path), { recursive: true });
      opened = openSync(path, 'a+');
    }
    const { size } = fstatSync(opened);
    if (size === 0) {
      if (durable) syncFolder(dirname(path));
    } else {
      const last = Buffer.alloc(1);
      readSync(opened, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) writeSync(opened, '\n');
    }
    return opened;
  };
  return {
    append(line: string): void {
      fd ??= open();
      writeSync(fd, `${line}\n`);
      if (durable) fsyncSync(fd);
    },
    close(): void {
      if (fd === undefined) return;
      closeSync(fd);
      fd = undefined;
    },
  };
}

function syncFolder(dir: string): void {
  const dfd = openSync(dir, 'r');
  try {
    fsyncSync(dfd);
  } finally {
    closeSync(dfd);
  }
}

/** The records of a line file, in order; a line that is not one (a torn last line) is left out. */
export function readLines<T>(text: string, parse: (line: string) => T): T[] {
  const records: T[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      records.push(parse(line));
    } catch {
      // torn by a crash in the middle of its write, or not ours: skipped
    }
  }
  return records;
}
