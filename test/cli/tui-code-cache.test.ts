import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { codeCachePath } from '../../src/cli/tui-code-cache.js';
import { ensureDist, ROOT } from '../helpers/ensure-dist.js';

// A copy of dist/ inside the project (so its imports still find node_modules/), whose code cache this
// file owns: the tests in other files share the real dist/tui.
let copy: string;
let tuiDir: string;
beforeAll(() => {
  ensureDist();
  copy = mkdtempSync(path.join(ROOT, '.tmp-tui-code-cache-'));
  cpSync(path.join(ROOT, 'dist'), path.join(copy, 'dist'), {
    recursive: true,
    filter: (src) => !/\.(map|d\.ts|v8cache)$/.test(src),
  });
  tuiDir = path.join(copy, 'dist', 'tui');
}, 180_000);
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** Loads the TUI from the copy in a fresh process, as `attractor run` does on a terminal. */
function load(): { cacheUsed: boolean; cacheFile: string; kinds: string } {
  const script = `
    const { loadTui, tuiLoadInfo } = await import(${JSON.stringify(path.join(copy, 'dist', 'cli', 'load-tui.js'))});
    const tui = await loadTui();
    console.log(JSON.stringify({ ...tuiLoadInfo(), kinds: typeof tui.startRunTui + ' ' + typeof tui.attachTui }));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(child.status, child.stderr).toBe(0);
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout);
}

const caches = () => readdirSync(tuiDir).filter((name) => name.endsWith('.v8cache'));

describe('the TUI bundle runs with V8 code cached beside it', () => {
  test('the first load writes the cache as the process exits; the next load uses it', () => {
    const first = load();
    expect(first).toMatchObject({ from: 'bundle', cacheUsed: false, kinds: 'function function' });
    expect(existsSync(first.cacheFile)).toBe(true);
    expect(caches()).toEqual([path.basename(first.cacheFile)]);
    const second = load();
    expect(second).toMatchObject({ cacheUsed: true, cacheFile: first.cacheFile, kinds: 'function function' });
  });

  test("the build's warm-up writes the cache, so the very first load uses it", () => {
    for (const name of caches()) rmSync(path.join(tuiDir, name));
    const warm = spawnSync(
      process.execPath,
      [path.join(ROOT, 'scripts', 'warm-tui-code-cache.mjs'), path.join(copy, 'dist')],
      { encoding: 'utf8' },
    );
    expect(warm.status, warm.stderr).toBe(0);
    expect(caches()).toHaveLength(1);
    expect(load()).toMatchObject({ from: 'bundle', cacheUsed: true, kinds: 'function function' });
  });

  test('a corrupt or truncated cache is rejected, the TUI loads anyway, and a good cache replaces it', () => {
    const { cacheFile } = load();
    const good = readFileSync(cacheFile);
    for (const bad of [Buffer.from('not a code cache'), good.subarray(0, good.length >> 1)]) {
      writeFileSync(cacheFile, bad);
      expect(load()).toMatchObject({ cacheUsed: false, kinds: 'function function' });
      expect(load()).toMatchObject({ cacheUsed: true });
    }
  });

  test('a cache that cannot be written or read costs nothing but the cache', () => {
    const { cacheFile } = load();
    rmSync(cacheFile);
    // A directory where the file would go: reading it and renaming over it both fail.
    mkdirSync(cacheFile);
    writeFileSync(path.join(cacheFile, 'keep'), '');
    expect(load()).toMatchObject({ cacheUsed: false, kinds: 'function function' });
    expect(load()).toMatchObject({ cacheUsed: false, kinds: 'function function' });
    expect(readdirSync(tuiDir).filter((name) => name.includes('.tmp'))).toEqual([]);
    rmSync(cacheFile, { recursive: true });
  });

  test('a rebuilt bundle never finds the old code, even at the same length (V8 checks only the length)', () => {
    const bundle = path.join(tuiDir, 'tui-entry.bundle.cjs');
    const a = 'x'.repeat(100);
    const b = `${'x'.repeat(99)}y`;
    expect(codeCachePath(bundle, a)).not.toBe(codeCachePath(bundle, b));
    expect(codeCachePath(bundle, a)).toBe(codeCachePath(bundle, a));
    expect(path.dirname(codeCachePath(bundle, a))).toBe(tuiDir);
  });
});
