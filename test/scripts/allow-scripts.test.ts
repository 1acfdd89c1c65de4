import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));

describe('install scripts', () => {
  it('package.json decides on every dependency with an install script (npm ci warns of any left out)', () => {
    const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([key]) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length))
      .sort();
    const allowScripts = read('package.json')['allowScripts'] as Record<string, boolean>;
    expect(Object.keys(allowScripts).sort()).toEqual(withScripts);
    // The TUI bundle is built by esbuild, whose install script checks its platform binary.
    expect(allowScripts['esbuild']).toBe(true);
  });
});
