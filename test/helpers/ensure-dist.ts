/**
 * End-to-end tests run the real `bin/attractor.js`, which loads dist/. CI builds dist/ in `npm ci`
 * (the `prepare` script); locally this rebuilds it once when any file under src/ is newer.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = path.join(ROOT, 'bin', 'attractor.js');

function newest(dir: string): number {
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) n = Math.max(n, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return n;
}

const STALE_LOCK_MS = 10 * 60_000;

export function ensureDist(): void {
  // The CLI's bundle is the build's last output (`npm run build`: tsc, the web view, then
  // scripts/bundle-cli.mjs), so a `tsc`-only build leaves it older than src/ and the next test run
  // rebuilds all.
  const marker = path.join(ROOT, 'dist', 'bin', 'attractor.js');
  const fresh = (): boolean => {
    try {
      return statSync(marker).mtimeMs >= newest(path.join(ROOT, 'src'));
    } catch {
      return false;
    }
  };
  if (fresh()) return;
  // Test files run in parallel workers: one builds, the others wait for its lock to go.
  const lock = path.join(ROOT, '.dist-build.lock');
  // A lock older than any build is one a killed test run left behind: it guards nothing.
  try {
    if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
  } catch {}
  try {
    mkdirSync(lock);
  } catch {
    const until = Date.now() + 120_000;
    while (Date.now() < until) {
      try {
        statSync(lock);
      } catch {
        return;
      }
      execFileSync('sleep', ['0.2']);
    }
    return;
  }
  try {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe' });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
