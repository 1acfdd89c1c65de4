import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { PathOutsideWorkdirError } from './path-outside-workdir-error.js';

/** Symlink hops followed before giving up (the kernel's ELOOP limit is 40). */
const MAX_LINK_HOPS = 40;

/** `child` is `root` or below it (both absolute, normalised). */
export function isInside(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * The real absolute path `target` (relative to `root`, or absolute) names, following every symlink, also
 * for a file that does not exist yet (its deepest existing ancestor is resolved) and for a dangling link
 * (whose target is where a write would land). Refuses anything that ends up outside `root`: `../x`,
 * `/etc/passwd`, and a link inside the working directory pointing out of it.
 *
 * @param root the working directory, already a real path
 * @param alias the working directory as the user named it, when that differs from `root` (a symlinked
 *   `/tmp`): absolute paths under it are read as paths under `root`
 */
export async function resolveInside(root: string, target: string, alias?: string): Promise<string> {
  let absolute = path.resolve(root, target);
  if (alias !== undefined && alias !== root && !isInside(root, absolute) && isInside(alias, absolute)) {
    absolute = path.join(root, path.relative(alias, absolute));
  }
  // Cheap refusal first, so `../../etc/shadow` never touches the file system.
  if (!isInside(root, absolute)) throw new PathOutsideWorkdirError(target, root);
  const real = await realpathAllowMissing(absolute, 0);
  if (!isInside(root, real)) throw new PathOutsideWorkdirError(target, root);
  return real;
}

async function realpathAllowMissing(absolute: string, hops: number): Promise<string> {
  try {
    return await realpath(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  const parent = path.dirname(absolute);
  if (parent === absolute) return absolute;
  const stats = await lstat(absolute).catch(() => undefined);
  if (stats?.isSymbolicLink() && hops < MAX_LINK_HOPS) {
    // A dangling link: writing through it creates its target, so its target is what must be inside.
    const link = await readlink(absolute);
    return realpathAllowMissing(path.resolve(parent, link), hops + 1);
  }
  return path.join(await realpathAllowMissing(parent, hops), path.basename(absolute));
}
