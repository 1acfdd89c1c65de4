import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findTestFiles } from '../../src/pipeline-tests/find-test-files.js';
import { tempDir } from '../helpers/temp-dir.js';

function tree(files: string[]): string {
  const dir = tempDir('attractor-find-');
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), '');
  }
  return dir;
}

const FILES = [
  'a.dot',
  'a.test.yaml',
  'a.test.json',
  'sub/b.test.yml',
  'sub/notes.yaml',
  'node_modules/x/c.test.json',
  '.git/d.test.json',
  '.attractor-runs/e.test.json',
  'f.dot',
];

describe('findTestFiles', () => {
  it.each([
    {
      what: 'a folder: searched, dependencies and records left out',
      args: ['.'],
      found: ['a.test.json', 'a.test.yaml', 'sub/b.test.yml'],
    },
    {
      what: 'no path: the working directory',
      args: [],
      found: ['a.test.json', 'a.test.yaml', 'sub/b.test.yml'],
    },
    { what: 'a pipeline: the test files next to it', args: ['a.dot'], found: ['a.test.json', 'a.test.yaml'] },
    { what: 'a test file, named twice', args: ['sub/b.test.yml', 'sub'], found: ['sub/b.test.yml'] },
  ])('$what', ({ args, found }) => {
    const dir = tree(FILES);
    expect(findTestFiles(args, dir).map((f) => f.shownAs)).toEqual(found);
  });

  it.each([
    { args: ['f.dot'], error: 'f.dot: no test file next to it (f.test.json or .test.yaml).' },
    { args: ['missing'], error: 'missing: no such file or folder.' },
    { args: ['sub/notes.yaml'], error: /^sub\/notes\.yaml: neither a folder, a pipeline/ },
  ])('refuses $args', ({ args, error }) => {
    const dir = tree(FILES);
    expect(() => findTestFiles(args, dir)).toThrow(error);
  });
});
