import { isAbsolute, relative, resolve, sep } from 'node:path';

/** `folder` relative to `workTree` with forward slashes, or undefined when it is not inside it. */
export function insideTree(workTree: string, folder: string): string | undefined {
  const rel = relative(resolve(workTree), resolve(folder));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/** A pathspec leaving out one path (literally: no glob in a file name can widen it). */
export const excludeSpec = (path: string): string => `:(exclude,literal)${path}`;

/** An ignore pattern matching exactly the folder `rel` (relative to the work tree's top). */
export const ignoreFolderPattern = (rel: string): string =>
  `/${rel.replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`)}/`;

/** The folders inside a work tree the run must never record, relative to it. */
export function excludedInside(workTree: string, excluded: readonly string[]): string[] {
  return excluded.flatMap((folder) => {
    const rel = insideTree(workTree, folder);
    return rel === undefined ? [] : [rel];
  });
}

/** Split git's NUL-terminated output into its entries. */
export const nulSplit = (text: string): string[] => text.split('\0').filter((entry) => entry !== '');
