import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { followLines } from '../../src/tui/follow-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'follow-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const until = async (check: () => boolean) => {
  const end = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

test('reads what is there, then each appended line as it is written, whole lines only', async () => {
  const file = join(dir, 'events.jsonl');
  writeFileSync(file, 'one\ntwo\n');
  const seen: string[] = [];
  const follower = followLines(file, (line) => seen.push(line));
  expect(seen).toEqual(['one', 'two']);
  appendFileSync(file, 'thr');
  // A negative window: a partial line must not be delivered, so there is no event to wait for.
  await new Promise((r) => setTimeout(r, 50));
  expect(seen).toEqual(['one', 'two']);
  appendFileSync(file, 'ee\nfour\n');
  await until(() => seen.length === 4);
  expect(seen).toEqual(['one', 'two', 'three', 'four']);
  follower.close();
});

test('waits for a file whose directory does not exist yet', async () => {
  const file = join(dir, 'node', 'stdout.log');
  const seen: string[] = [];
  const follower = followLines(file, (line) => seen.push(line));
  mkdirSync(join(dir, 'node'));
  // Puts the file's creation after the directory's, as a node does; the test holds without the pause.
  await new Promise((r) => setTimeout(r, 30));
  writeFileSync(file, 'hello\n');
  await until(() => seen.length === 1);
  appendFileSync(file, 'world\n');
  await until(() => seen.length === 2);
  expect(seen).toEqual(['hello', 'world']);
  follower.close();
});

test('multi-byte characters split across reads stay whole', async () => {
  const file = join(dir, 'utf8.log');
  writeFileSync(file, '');
  const seen: string[] = [];
  const follower = followLines(file, (line) => seen.push(line));
  const bytes = Buffer.from('héllo ✓\n');
  appendFileSync(file, bytes.subarray(0, 2));
  // Lets the follower read the first half alone; the test holds (less sharply) without the pause.
  await new Promise((r) => setTimeout(r, 30));
  appendFileSync(file, bytes.subarray(2));
  await until(() => seen.length === 1);
  expect(seen).toEqual(['héllo ✓']);
  follower.close();
});
