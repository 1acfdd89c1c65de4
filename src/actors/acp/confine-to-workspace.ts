import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** The real path of `target`, resolving symlinks through its deepest existing ancestor (it may not exist yet). */
function realPathOf(target: string): string {
  let existing = target;
  const rest: string[] = [];
  while (!existsSync(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
  return path.join(realpathSync(existing), ...rest);
}

function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return path.resolve(root);
  }
}

/**
 * The real path of a file an agent asks for, when it lies inside one of `roots` (the run's working
 * directory and the node's stage directory); undefined otherwise. ACP paths are absolute; a relative one
 * is taken relative to the first root. Symlinks that lead outside count as outside.
 *
 * @example
 * confineToWorkspace('/repo/src/a.ts', ['/repo']) // '/repo/src/a.ts'
 * confineToWorkspace('/etc/passwd', ['/repo'])    // undefined
 */
export function confineToWorkspace(requested: string, roots: readonly string[]): string | undefined {
  const first = roots[0];
  if (first === undefined || requested.includes('\0')) return undefined;
  const real = realPathOf(path.resolve(first, requested));
  for (const root of roots) {
    const base = realRoot(root);
    if (real === base || real.startsWith(`${base}${path.sep}`)) return real;
  }
  return undefined;
}
