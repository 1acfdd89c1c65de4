import { fstatSync, readSync } from 'node:fs';

/**
 * The last line of the open file `fd`, read from its end (the trail grows without bound, its head is
 * one line), and whether it ends with a newline (`whole`); `undefined` for an empty file.
 */
export function readLastLine(fd: number): { line: string; whole: boolean } | undefined {
  const size = fstatSync(fd).size;
  if (size === 0) return undefined;
  for (let span = 4096; ; span *= 4) {
    const start = Math.max(0, size - span);
    const bytes = Buffer.alloc(size - start);
    readSync(fd, bytes, 0, bytes.length, start);
    // A newline byte is never inside a multi-byte character: what follows the last one decodes whole.
    const text = bytes.toString('utf8');
    const whole = text.endsWith('\n');
    const body = whole ? text.slice(0, -1) : text;
    const cut = body.lastIndexOf('\n');
    if (cut >= 0 || start === 0) return { line: body.slice(cut + 1), whole };
  }
}
