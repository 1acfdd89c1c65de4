import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

// Folders made outside a test (a `beforeAll`, a describe body): removed when the worker process exits.
// Not an `afterEach` at module level: a worker keeps its modules from file to file (vitest.config.ts),
// so such a hook would be registered in the first file only, and would remove the folders of tests
// running concurrently beside the one that ended.
const outsideTests: string[] = [];
process.once('exit', () => {
  for (const dir of outsideTests) rmSync(dir, { recursive: true, force: true });
});

/**
 * A fresh folder under the system temp folder, removed when the test that made it ends (or, made
 * outside a test, when the worker exits). In a concurrent test, pass the test context's
 * `onTestFinished`: vitest does not know which concurrent test the global one belongs to.
 */
export function tempDir(
  prefix = 'attractor-test-',
  onFinished: (cleanup: () => void) => void = onTestFinished,
): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    onFinished(() => rmSync(dir, { recursive: true, force: true }));
  } catch {
    outsideTests.push(dir);
  }
  return dir;
}
