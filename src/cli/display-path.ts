import { isAbsolute, relative } from 'node:path';

/** A path for messages: relative to `cwd` when inside it, else absolute (never `../../..`). */
export function displayPath(cwd: string, target: string): string {
  const rel = relative(cwd, target);
  if (rel === '') return '.';
  return rel.startsWith('..') || isAbsolute(rel) ? target : rel;
}
