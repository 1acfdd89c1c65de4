import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAge } from '../../src/run/prune-runs.js';
import { parseByteSize } from '../../src/working-tree/byte-size.js';
import { parseGitVersion } from '../../src/working-tree/git-available.js';
import { locateRepository } from '../../src/working-tree/locate-repository.js';
import { inheritedIgnores } from '../../src/working-tree/tree-git-dir.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('sizes, ages and git versions', () => {
  it.each([
    ['10MB', 10 * 1024 * 1024],
    ['500m', 500 * 1024 * 1024],
    ['2048', 2048],
    ['1.5k', 1536],
    ['0', undefined],
    ['ten', undefined],
    ['5 parsecs', undefined],
  ])('parseByteSize(%j) is %j', (text, bytes) => expect(parseByteSize(text)).toBe(bytes));

  it.each([
    ['30d', 30 * 86_400_000],
    ['12h', 12 * 3_600_000],
    ['2w', 14 * 86_400_000],
    ['90m', 90 * 60_000],
    ['soon', undefined],
    ['30', undefined],
  ])('parseAge(%j) is %j', (text, ms) => expect(parseAge(text)).toBe(ms));

  it.each([
    ['git version 2.39.5', [2, 39]],
    ['git version 2.30.0.windows.1', [2, 30]],
    ['not git', undefined],
  ])('parseGitVersion(%j) is %j', (line, version) => expect(parseGitVersion(line)).toEqual(version));
});

describe('a working subfolder inherits the ignore files above it', () => {
  it('keeps patterns that match anywhere and those anchored below it, relative to it', () => {
    const top = tempDir('attractor-ignores-');
    mkdirSync(join(top, '.git', 'info'), { recursive: true });
    writeFileSync(join(top, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    mkdirSync(join(top, '.git', 'objects'));
    writeFileSync(join(top, '.git', 'info', 'exclude'), '*.swp\n');
    writeFileSync(
      join(top, '.gitignore'),
      'node_modules/\n/app/build/\n/other/dist\n# a comment\n!keep.log\n',
    );
    const app = join(top, 'app');
    mkdirSync(app);
    const repo = locateRepository(app);
    expect(repo?.top).toBe(top);
    expect(inheritedIgnores(repo!, app)).toEqual(['*.swp', 'node_modules/', '/build/', '!keep.log']);
  });
});
