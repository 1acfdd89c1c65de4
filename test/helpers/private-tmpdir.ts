/**
 * vitest globalSetup: the run gets a temp folder of its own, and fails if anything is left in it.
 *
 * A test that forgets a temp folder, or a server or session that does not remove its own, leaves it
 * behind on every run, and CI runs the suite again and again. Other processes on the machine (another
 * run of the suite, too) write `attractor-*` folders to the same system temp folder at the same time,
 * so a count of that folder would blame this run for their folders. Instead the run points TMPDIR at a
 * private folder before any worker starts: the workers, and every process a test starts, inherit it,
 * and `os.tmpdir()` reads it on each call. Whatever is still in it when the run ends was leaked.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

interface PrivateTmpdir {
  dir: string;
  previous: string | undefined;
  /** vitest calls a globalSetup once per project (and once for the root): one folder for them all. */
  users: number;
}

// On globalThis, not in a module variable: vitest may load this file once per project.
const KEY = Symbol.for('attractor.test.private-tmpdir');
const shared = globalThis as { [KEY]?: PrivateTmpdir };

export function setup(): () => void {
  let state = shared[KEY];
  if (!state) {
    const dir = mkdtempSync(join(tmpdir(), 'attractor-suite-'));
    // As open as /tmp itself: run as root, the suite starts PostgreSQL as the `postgres` user, which
    // must reach its cluster folder in here.
    chmodSync(dir, 0o1777);
    state = { dir, previous: process.env.TMPDIR, users: 0 };
    shared[KEY] = state;
    process.env.TMPDIR = dir;
  }
  state.users += 1;
  const owned = state;
  // vitest tears the PostgreSQL cluster (which lives in the folder) down before the last of these.
  return () => {
    owned.users -= 1;
    if (owned.users > 0) return;
    delete shared[KEY];
    if (owned.previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = owned.previous;
    const left = readdirSync(owned.dir)
      .sort()
      .map((name) => describeEntry(owned.dir, name));
    // Removed even when something leaked: a failing run must not fill the temp folder either.
    rmSync(owned.dir, { recursive: true, force: true });
    if (left.length === 0) return;
    // vitest prints an error thrown here but still exits 0: the exit code is set here.
    process.exitCode = 1;
    throw new Error(
      `the test run left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in its temp folder ` +
        '(a test must remove what it creates, e.g. through test/helpers/temp-dir.ts; a server or ' +
        `session must remove its own folders when it closes):\n  ${left.join('\n  ')}`,
    );
  };
}

/** An entry and a few of the files in it: which test made a folder shows in what it holds. */
function describeEntry(dir: string, name: string): string {
  const entry = join(dir, name);
  let files: string[];
  try {
    files = statSync(entry).isDirectory()
      ? readdirSync(entry, { recursive: true, withFileTypes: true })
          .filter((file) => !file.isDirectory())
          .map((file) => relative(entry, join(file.parentPath, file.name)))
      : [];
  } catch {
    // Removed meanwhile by whatever was still writing it: the name is all there is to show.
    files = [];
  }
  if (files.length === 0) return name;
  const more = files.length > 3 ? `, … ${files.length} files` : '';
  return `${name} (${files.slice(0, 3).join(', ')}${more})`;
}
