import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { writeFileAtomic } from '../../src/shared/atomic-write.js';
import { tempDir as makeTempDir } from '../helpers/temp-dir.js';

const tempDir = () => makeTempDir('attractor-atomic-');

test('replaces a file whole, making its directory when missing', () => {
  const dir = tempDir();
  const file = path.join(dir, 'deep', 'er', 'f.json');
  writeFileAtomic(file, 'one');
  writeFileAtomic(file, new TextEncoder().encode('two'), { durable: false });
  expect(readFileSync(file, 'utf8')).toBe('two');
  expect(readdirSync(path.dirname(file))).toEqual(['f.json']);
});

test('a write that cannot land (a directory in the way) throws and leaves no temp file', () => {
  const dir = tempDir();
  const target = path.join(dir, 'taken');
  mkdirSync(target);
  writeFileSync(path.join(target, 'inside'), '');
  expect(() => writeFileAtomic(target, 'data')).toThrow();
  expect(readdirSync(dir)).toEqual(['taken']);
});
