import { closeSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAtMost } from '../../src/shared/read-at-most.js';
import { tempDir } from '../helpers/temp-dir.js';

function readFile(file: string, maxBytes: number) {
  const fd = openSync(file, 'r');
  try {
    return readAtMost(fd, maxBytes);
  } finally {
    closeSync(fd);
  }
}

describe('readAtMost', () => {
  // [name, bytes in the file, cap]; a file past one 64 KB chunk checks that the chunks join in order.
  it.each<[string, number, number]>([
    ['an empty file', 0, 10],
    ['a file under the cap', 5, 10],
    ['a file exactly at the cap', 10, 10],
    ['a file of several chunks under the cap', 200_000, 300_000],
    ['a file of several chunks exactly at the cap', 200_000, 200_000],
  ])('reads %s whole', (_name, size, cap) => {
    const file = path.join(tempDir(), 'f');
    const content = Buffer.from(Array.from({ length: size }, (_, i) => i % 251));
    writeFileSync(file, content);
    const read = readFile(file, cap);
    expect(read.ok && read.bytes.equals(content)).toBe(true);
  });

  it.each<[string, number, number]>([
    ['one byte over the cap', 11, 10],
    ['several chunks over the cap', 200_000, 100_000],
  ])('refuses a file %s, saying how much came', (_name, size, cap) => {
    const file = path.join(tempDir(), 'f');
    writeFileSync(file, Buffer.alloc(size, 97));
    const read = readFile(file, cap);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.bytesRead).toBeGreaterThan(cap);
  });

  it('stops reading a device that never ends', () => {
    const read = readFile('/dev/zero', 100_000);
    expect(read).toEqual({ ok: false, bytesRead: 2 * 64 * 1024 });
  });
});
