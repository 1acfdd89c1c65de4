import { describe, expect, it } from 'vitest';
import { globToRegExp } from '../../../src/agent/environment/glob-to-regexp.js';

describe('globToRegExp', () => {
  it.each([
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/a.ts', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'src/deep/a.ts', true],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/x/y/a.ts', true],
    ['src/**/*.ts', 'lib/a.ts', false],
    ['src/**', 'src/x/y', true],
    ['?.md', 'a.md', true],
    ['?.md', 'ab.md', false],
    ['[ab].txt', 'b.txt', true],
    ['[!ab].txt', 'b.txt', false],
    ['*.{js,mjs}', 'x.mjs', true],
    ['*.{js,mjs}', 'x.cjs', false],
    ['a+b(1).txt', 'a+b(1).txt', true],
    ['a.txt', 'aXtxt', false],
  ])('%s on %s → %s', (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });

  it('can ignore case', () => {
    expect(globToRegExp('*.TS', { caseInsensitive: true }).test('a.ts')).toBe(true);
  });
});
