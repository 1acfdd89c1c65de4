import { closeSync, existsSync, type FSWatcher, fstatSync, openSync, readSync, watch } from 'node:fs';
import { dirname } from 'node:path';

export interface Follower {
  /** Read whatever was appended since the last read (also done on every change notification). */
  drain(): void;
  close(): void;
}

/**
 * Follows a file as another process appends to it: reads what is there, then reads each increment
 * when `fs.watch` reports a change, never polling. A file that does not exist yet is waited for by
 * watching the nearest directory that exists. Hands over complete lines only (a half-written line waits for its end).
 */
export function followLines(path: string, onLine: (line: string) => void): Follower {
  let fd: number | undefined;
  let position = 0;
  let partial = '';
  let fileWatcher: FSWatcher | undefined;
  let dirWatcher: FSWatcher | undefined;
  let closed = false;
  const buffer = Buffer.alloc(64 * 1024);
  const decoder = new TextDecoder();

  const drain = () => {
    if (closed) return;
    if (fd === undefined) {
      if (!existsSync(path)) return;
      fd = openSync(path, 'r');
      fileWatcher = watch(path, drain);
      dirWatcher?.close();
      dirWatcher = undefined;
    }
    // A file replaced by a shorter one (rotated, rewritten) is read again from its start.
    if (fstatSync(fd).size < position) {
      position = 0;
      partial = '';
    }
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, position);
      if (read <= 0) break;
      position += read;
      partial += decoder.decode(buffer.subarray(0, read), { stream: true });
      let newline = partial.indexOf('\n');
      while (newline >= 0) {
        const line = partial.slice(0, newline);
        partial = partial.slice(newline + 1);
        if (line.trim() !== '') onLine(line);
        // The callback may have closed the follower (it saw the last event it wanted).
        if (closed) return;
        newline = partial.indexOf('\n');
      }
    }
  };

  // Until the file exists, watch its nearest existing ancestor; each change there re-arms one level deeper.
  let watchedDir: string | undefined;
  const waitForFile = () => {
    if (closed || fd !== undefined || existsSync(path)) return;
    let dir = dirname(path);
    while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
    if (dir === watchedDir) return;
    dirWatcher?.close();
    watchedDir = dir;
    dirWatcher = watch(dir, () => {
      drain();
      waitForFile();
    });
  };
  waitForFile();
  drain();
  return {
    drain,
    close() {
      if (closed) return;
      closed = true;
      fileWatcher?.close();
      dirWatcher?.close();
      if (fd !== undefined) closeSync(fd);
    },
  };
}
