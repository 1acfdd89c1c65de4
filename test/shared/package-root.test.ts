import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { packageRoot } from '../../src/shared/package-root.js';

test('packageRoot() is the folder of our package.json, found from the module wherever it runs', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  expect(path.resolve(packageRoot())).toBe(path.resolve(root));
  const manifest = JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as {
    name: string;
  };
  expect(manifest.name).toBe('attractor-pipelines');
});
