import { readSync } from 'node:fs';

/** An open file read to its end: its bytes, or how many had come when the cap was passed. */
export type ReadAtMost = { ok: true; bytes: Buffer } | { ok: false; bytesRead: number };

/**
 * Reads an open descriptor to its end, giving up as soon as more than `maxBytes` came: a device such as
 * /dev/zero never ends and a file may grow after its size was checked, so the cap holds for what is read,
 * not for what `stat` said. Pipes (`/dev/stdin`) read like files.
 */
export function readAtMost(fd: number, maxBytes: number): ReadAtMost {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) return { ok: true, bytes: Buffer.concat(chunks, total) };
    total += n;
    if (total > maxBytes) return { ok: false, bytesRead: total };
    chunks.push(chunk.subarray(0, n));
  }
}
