import { type ConfinedRead, readConfinedFile } from '../../shared/read-confined-file.js';
import { type ReadScope, resolveInScope } from './read-scope.js';

/** Same cap as the DOT parser's input: a named file larger than a whole pipeline is a mistake. */
export const MAX_NAMED_FILE_BYTES = 10 * 1024 * 1024;

/**
 * Reads one file for the compiler: given the absolute path and the roots it must stay inside. The
 * default reads the disk (`readConfinedFile`); tests and embedders inject their own, which must keep
 * the same promise (confined after symlinks, regular files only, bounded).
 */
export type NamedFileReader = (absPath: string, roots: readonly string[]) => ConfinedRead;

export const readFromDisk: NamedFileReader = (absPath, roots) =>
  readConfinedFile(absPath, { roots, maxBytes: MAX_NAMED_FILE_BYTES });

/**
 * `not_allowed`: outside the scope (absolute, `..` past the roots, a link out); `unusable`: inside,
 * but missing, not a regular file, too large or unreadable. Diagnostics give them different rules.
 */
export type NamedFile =
  | { ok: true; path: string; text: string }
  | { ok: false; kind: 'not_allowed' | 'unusable'; path?: string; message: string; fix: string };

/**
 * A file a pipeline names (`what`: `the prompt of node "plan"`), resolved in `scope` and read through
 * `reader`. Expected failures are returned with a one-sentence message, never thrown.
 *
 * @example
 * const plan = readNamedFile('prompts/plan.md', scope, 'the prompt of node "plan"');
 * if (!plan.ok) console.error(plan.message);
 */
export function readNamedFile(
  name: string,
  scope: ReadScope,
  what: string,
  reader: NamedFileReader = readFromDisk,
): NamedFile {
  const located = resolveInScope(name, scope);
  if (!located.ok) return notAllowed(name, undefined, located.reason, scope, what);
  const read = reader(located.path, scope.roots);
  if (read.ok) return read;
  if (read.problem === 'outside') return notAllowed(name, located.path, read.reason, scope, what);
  const shown = scope.hidePaths ? `"${name}"` : located.path;
  return {
    ok: false,
    kind: 'unusable',
    path: located.path,
    message: `${what} names "${name}", but ${shown} cannot be used: ${read.reason}; paths are relative to the pipeline file`,
    fix: read.problem === 'missing' ? `create ${shown} or fix the path` : 'name a regular text file instead',
  };
}

function notAllowed(
  name: string,
  resolved: string | undefined,
  reason: string,
  scope: ReadScope,
  what: string,
): NamedFile {
  return {
    ok: false,
    kind: 'not_allowed',
    ...(resolved ? { path: resolved } : {}),
    message: `${what} names "${name}", which is not allowed: ${reason}. A pipeline reads only files inside ${scope.described}`,
    fix: `move the file inside ${scope.described}${scope.widen ? `, or ${scope.widen}` : ''}`,
  };
}
