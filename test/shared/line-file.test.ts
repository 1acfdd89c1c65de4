import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { openLineFile, readLines, writeWhole } from '../../src/shared/line-file.js';
import { tempDir as makeTempDir } from '../helpers/temp-dir.js';

const tempDir = () => makeTempDir('attractor-lines-');

test('appends one line per record, making the folder and the file on the first append', () => {
  const file = path.join(tempDir(), 'deep', 'records.jsonl');
  const lines = openLineFile(file);
  lines.append('{"n":1}');
  lines.append('{"n":2}');
  lines.close();
  lines.close(); // closing twice is harmless
  expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n');
});

test.each([
  ['after a whole line', '{"n":1}\n', '{"n":1}\n{"n":2}\n'],
  ['after a torn line', '{"n":1}\n{"n":', '{"n":1}\n{"n":\n{"n":2}\n'],
])('a file an earlier process left: appends %s', (_, before, after) => {
  const file = path.join(tempDir(), 'records.jsonl');
  writeFileSync(file, before);
  const lines = openLineFile(file, { durable: false });
  lines.append('{"n":2}');
  lines.close();
  expect(readFileSync(file, 'utf8')).toBe(after);
  expect(readLines(readFileSync(file, 'utf8'), (l) => JSON.parse(l) as { n: number })).toEqual([
    { n: 1 },
    { n: 2 },
  ]);
});

test('durable: synced() resolves once the lines are fsync’d, one fsync for the lines appended while one runs', async () => {
  const file = path.join(tempDir(), 'records.jsonl');
  const lines = openLineFile(file, { durable: true });
  await lines.synced(); // nothing appended: nothing to wait for
  lines.append('{"n":1}');
  const first = lines.synced();
  expect(lines.synced()).toBe(first); // nothing new since that fsync began
  lines.append('{"n":2}');
  const second = lines.synced();
  lines.append('{"n":3}');
  expect(lines.synced()).toBe(second); // queued behind the first, it covers both lines
  await Promise.all([first, second]);
  lines.close(); // nothing under way: closed at once
  expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
});

test('closing while an fsync runs closes the file after it', async () => {
  const file = path.join(tempDir(), 'records.jsonl');
  const lines = openLineFile(file, { durable: true });
  lines.append('{"n":1}');
  const pending = lines.synced();
  lines.close();
  await expect(pending).resolves.toBeUndefined();
  expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n');
});

test('counts the bytes appended, empties on truncate, and syncs on demand', () => {
  const file = path.join(tempDir(), 'journal.jsonl');
  const lines = openLineFile(file);
  lines.syncNow(); // nothing appended yet: nothing to do
  lines.append('{"n":1}');
  lines.syncNow();
  expect(lines.size).toBe('{"n":1}\n'.length);
  lines.truncate();
  expect(lines.size).toBe(0);
  expect(readFileSync(file, 'utf8')).toBe('');
  lines.append('{"n":2}');
  lines.close();
  expect(readFileSync(file, 'utf8')).toBe('{"n":2}\n');
});

test('a write that stops short is followed by the rest of the line, so no line is left cut', () => {
  const written: Buffer[] = [];
  // At most five bytes a call, as a write interrupted by a signal or a filling disk can return.
  const shortWrite = (_fd: number, data: Buffer, offset: number): number => {
    const bytes = data.subarray(offset, offset + 5);
    written.push(bytes);
    return bytes.length;
  };
  const line = '{"n":1,"text":"été"}\n';
  expect(writeWhole(3, line, shortWrite)).toBe(Buffer.byteLength(line));
  expect(Buffer.concat(written).toString()).toBe(line);
});
