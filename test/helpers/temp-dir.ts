import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

/**
 * A fresh folder under the system temp folder, removed when the test that made it ends. In a
 * concurrent test, pass the test context's `onTestFinished`: vitest does not know which concurrent
 * test the global one belongs to.
 *
 * Made outside a test (a describe body, a test file's top level), it is removed after that suite's
 * tests (`afterAll`). Not from a `beforeAll`: vitest drops an `afterAll` registered while hooks run,
 * and not at the top level of a module several test files import: it is evaluated once per worker,
 * for the first of them. Not at worker exit either: vitest ends its workers with SIGTERM, so `exit`
 * listeners never run. A folder left behind fails the run (test/helpers/private-tmpdir.ts).
 */
export function tempDir(
  prefix = 'attractor-test-',
  onFinished: (cleanup: () => void) => void = onTestFinished,
): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    onFinished(cleanup);
  } catch {
    afterAll(cleanup);
  }
  return dir;
}
