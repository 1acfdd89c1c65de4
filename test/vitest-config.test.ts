import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ISOLATED } from '../vitest.config.js';
import { ROOT } from './helpers/ensure-dist.js';

// Most test files share their worker's modules (vitest.config.ts). A file that mocks a module would
// hand that mock to the files after it, or find the real module already loaded: it must run isolated.
it('runs every test file that mocks a module in a module registry of its own', () => {
  const files = readdirSync(path.join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.test\.tsx?$/.test(file))
    .map((file) => `test/${file.split(path.sep).join('/')}`);
  const mocking = files.filter((file) =>
    /\bvi\.(mock|doMock)\(/.test(readFileSync(path.join(ROOT, file), 'utf8')),
  );
  expect(mocking.length).toBeGreaterThan(0);
  expect(mocking.filter((file) => !ISOLATED.includes(file))).toEqual([]);
  for (const file of ISOLATED) expect(files).toContain(file);
});
