import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { deferredAtomicWrite } from '../../src/shared/deferred-atomic-write.js';
import { fdsUnder } from '../helpers/open-files.js';
import { tempDir as makeTempDir } from '../helpers/temp-dir.js';

const tempDir = () => makeTempDir('attractor-deferred-');
/** Event-loop turns until `done()` holds: the background fsync reports on one of them. */
async function turnsUntil(done: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
  expect(done()).toBe(true);
}

test('the target appears only with its content on disk: settle() places it at once', () => {
  const dir = tempDir();
  const target = path.join(dir, 'manifest.json');
  const write = deferredAtomicWrite(target, '{"a":1}\n');
  // No event-loop turn yet: the background fsync cannot have reported, so only the temp file exists.
  expect(readdirSync(dir)).toEqual([expect.stringMatching(/^\.manifest\.json\.\d+\.\d+\.tmp$/)]);
  write.settle();
  expect(readdirSync(dir)).toEqual(['manifest.json']);
  expect(readFileSync(target, 'utf8')).toBe('{"a":1}\n');
  write.settle();
  expect(readFileSync(target, 'utf8')).toBe('{"a":1}\n');
});

test('left alone, the name never appears: the file is closed once its fsync reports, and settle() places it', async () => {
  const dir = tempDir();
  const target = path.join(dir, 'pipeline.dot');
  const write = deferredAtomicWrite(target, 'digraph g {}\n');
  expect(fdsUnder(dir)).toBe(1);
  await turnsUntil(() => fdsUnder(dir) === 0);
  expect(readdirSync(dir)).toEqual([expect.stringMatching(/^\.pipeline\.dot\.\d+\.\d+\.tmp$/)]);
  write.settle();
  expect(readdirSync(dir)).toEqual(['pipeline.dot']);
  expect(readFileSync(target, 'utf8')).toBe('digraph g {}\n');
});

test('settled before the background fsync reports, the file is still closed exactly once', async () => {
  const dir = tempDir();
  const write = deferredAtomicWrite(path.join(dir, 'f'), 'x');
  write.settle();
  // The descriptor stays open for the fsync still running on the thread pool, then goes.
  expect(fdsUnder(dir)).toBe(1);
  await turnsUntil(() => fdsUnder(dir) === 0);
  expect(readdirSync(dir)).toEqual(['f']);
});

test('a rename that cannot land throws from settle() and leaves no temp file', () => {
  const dir = tempDir();
  const target = path.join(dir, 'taken');
  mkdirSync(target);
  writeFileSync(path.join(target, 'inside'), '');
  const write = deferredAtomicWrite(target, 'data');
  expect(() => write.settle()).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
  expect(() => write.settle()).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
  expect(readdirSync(dir)).toEqual(['taken']);
});

test('abandoned, before or after its fsync reports, it leaves nothing and settle() places nothing', async () => {
  const dir = tempDir();
  const early = deferredAtomicWrite(path.join(dir, 'early'), 'x');
  early.abandon();
  const late = deferredAtomicWrite(path.join(dir, 'late'), 'x');
  await turnsUntil(() => fdsUnder(dir) === 0);
  late.abandon();
  early.settle();
  late.settle();
  expect(readdirSync(dir)).toEqual([]);
});

test('a folder that does not exist fails at once', () => {
  const dir = tempDir();
  expect(() => deferredAtomicWrite(path.join(dir, 'missing', 'f'), 'x')).toThrow(/ENOENT/);
  expect(readdirSync(dir)).toEqual([]);
});
