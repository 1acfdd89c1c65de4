import path from 'node:path';
import { isInside } from '../../shared/is-inside.js';

/**
 * Where the files a pipeline names (`@file` prompts, child DOT files of manager loops) may come from.
 * Plain data: it travels with the graph (`PipelineGraph.readScope`), so a child pipeline started
 * mid-run and a prompt read at run time obey the same bounds the compiler checked.
 */
export interface ReadScope {
  /** The folder relative names resolve against (the DOT file's); absent when the pipeline has none. */
  base?: string;
  /** Absolute folders a named file must lie inside, after symlinks are resolved. */
  roots: readonly string[];
  /** The roots in words, for messages ("the DOT file's folder pipelines/ or the working directory"). */
  described: string;
  /** How the person running the pipeline widens the scope ("pass --allow-read DIR"), if they can. */
  widen?: string;
  /** Messages show names as written, never absolute paths (a server's clients learn nothing of its disk). */
  hidePaths?: boolean;
}

/**
 * The library default: the DOT file's folder and the process's working directory (the CLI adds the
 * `--allow-read` folders; the server passes its own scope). A graph without a file resolves against
 * the working directory.
 *
 * @example
 * defaultReadScope('/repo/pipelines/build.dot', '/repo');
 * // { base: '/repo/pipelines', roots: ['/repo/pipelines', '/repo'], described: '…' }
 */
export function defaultReadScope(file: string | undefined, cwd: string = process.cwd()): ReadScope {
  const base = file ? path.dirname(path.resolve(cwd, file)) : path.resolve(cwd);
  const roots = uniqueFolders([base, cwd]);
  return {
    base,
    roots,
    described: roots.length === 1 ? `the folder ${roots[0]}` : `the folders ${roots.join(', ')}`,
  };
}

/** Folders resolved to absolute paths, without repeats and without one already inside another. */
export function uniqueFolders(folders: readonly string[]): string[] {
  const resolved = [...new Set(folders.map((f) => path.resolve(f)))];
  return resolved.filter((f) => !resolved.some((other) => other !== f && isInside(f, other)));
}

export type ScopedPath = { ok: true; path: string } | { ok: false; reason: string };

/**
 * The absolute path a name written in a pipeline stands for, checked without touching the disk:
 * absolute names are refused (a pipeline names files relative to its folder), and so is a name whose
 * `..` climbs out of every root. Symlinks are checked when the file is read (`readNamedFile`).
 */
export function resolveInScope(name: string, scope: ReadScope): ScopedPath {
  if (path.isAbsolute(name) || path.win32.isAbsolute(name) || name.startsWith('~')) {
    return { ok: false, reason: 'absolute paths are not allowed; name it relative to the pipeline file' };
  }
  if (scope.base === undefined) {
    return { ok: false, reason: 'this pipeline has no folder, so it cannot name files' };
  }
  const resolved = path.resolve(scope.base, name);
  if (!scope.roots.some((root) => isInside(resolved, root))) {
    return { ok: false, reason: 'it is outside the folders this pipeline may read' };
  }
  return { ok: true, path: resolved };
}
