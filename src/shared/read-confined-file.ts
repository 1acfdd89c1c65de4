import { closeSync, constants, fstatSync, openSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isInside } from './is-inside.js';
import { readAtMost } from './read-at-most.js';

/** Why a named file was not read; each kind gets its own wording and diagnostic rule upstream. */
export type ConfinedReadProblem = 'outside' | 'missing' | 'not_regular' | 'too_large' | 'unreadable';

export type ConfinedRead =
  | { ok: true /** The file's real path (symlinks resolved). */; path: string; text: string }
  | { ok: false; problem: ConfinedReadProblem /** One clause: "it is a directory". */; reason: string };

export interface ConfinedReadOptions {
  /** Folders the file must be inside once every symlink is resolved. */
  roots: readonly string[];
  maxBytes: number;
}

/**
 * Reads a UTF-8 file that a pipeline names, refusing (as a returned result, never by hanging) anything
 * that is not a regular file inside one of `roots` after symlinks, or that is over `maxBytes`.
 *
 * The kind of file is checked with `stat` before anything is opened, so a FIFO or a device is never
 * opened (opening a FIFO with no writer blocks the whole process); the descriptor is then opened
 * non-blocking without following a link and checked again, so a file swapped in between cannot make
 * the read hang or escape. A missing file is reported as outside when the nearest folder that does
 * exist lies outside the roots: what lies beyond the roots is never described.
 *
 * @example
 * const read = readConfinedFile('/repo/prompts/plan.md', { roots: ['/repo'], maxBytes: 1 << 20 });
 * if (read.ok) console.log(read.text);
 */
export function readConfinedFile(absPath: string, options: ConfinedReadOptions): ConfinedRead {
  const roots = realRoots(options.roots);
  let real: string;
  try {
    real = realpathSync(absPath);
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return unreadable(error);
    const ancestor = nearestExistingAncestor(absPath);
    if (ancestor === undefined || !roots.some((root) => isInside(ancestor, root)))
      return { ok: false, problem: 'outside', reason: 'it is outside the folders this pipeline may read' };
    return { ok: false, problem: 'missing', reason: 'no such file' };
  }
  if (!roots.some((root) => isInside(real, root)))
    return { ok: false, problem: 'outside', reason: 'it is outside the folders this pipeline may read' };

  let kind: ConfinedRead | undefined;
  try {
    kind = checkKind(statSync(real), options.maxBytes);
  } catch (error) {
    return unreadable(error);
  }
  if (kind) return kind;

  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    return unreadable(error);
  }
  try {
    const changed = checkKind(fstatSync(fd), options.maxBytes);
    if (changed) return changed;
    // The file may grow after the size check: the cap holds for what is read too.
    const read = readAtMost(fd, options.maxBytes);
    if (!read.ok) return tooLarge(read.bytesRead, options.maxBytes);
    return { ok: true, path: real, text: read.bytes.toString('utf8') };
  } catch (error) {
    return unreadable(error);
  } finally {
    closeSync(fd);
  }
}

function checkKind(
  stat: { isFile(): boolean; isDirectory(): boolean; size: number },
  maxBytes: number,
): ConfinedRead | undefined {
  if (stat.isDirectory()) return { ok: false, problem: 'not_regular', reason: 'it is a directory' };
  if (!stat.isFile())
    return {
      ok: false,
      problem: 'not_regular',
      reason: 'it is not a regular file (a FIFO, device or socket is never read)',
    };
  if (stat.size > maxBytes) return tooLarge(stat.size, maxBytes);
  return undefined;
}

function tooLarge(size: number, maxBytes: number): ConfinedRead {
  return {
    ok: false,
    problem: 'too_large',
    reason: `it is ${size} bytes or more, over the ${formatBytes(maxBytes)} limit`,
  };
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`;
}

function realRoots(roots: readonly string[]): string[] {
  const real: string[] = [];
  for (const root of roots) {
    try {
      real.push(realpathSync(root));
    } catch {
      // A root that does not exist holds nothing to read.
    }
  }
  return real;
}

function nearestExistingAncestor(absPath: string): string | undefined {
  let dir = path.dirname(path.resolve(absPath));
  for (;;) {
    try {
      return realpathSync(dir);
    } catch {
      const up = path.dirname(dir);
      if (up === dir) return undefined;
      dir = up;
    }
  }
}

function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

function unreadable(error: unknown): ConfinedRead {
  const code = errorCode(error);
  const reason =
    code === 'EACCES' || code === 'EPERM'
      ? 'permission denied'
      : code === 'ELOOP'
        ? 'it is a symbolic link that changed while being read, or loops'
        : `it cannot be read (${code ?? (error instanceof Error ? error.message : String(error))})`;
  return { ok: false, problem: 'unreadable', reason };
}
