import { realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * Each folder as given (absolute) and, when it differs, as the disk resolves it: a name checked
 * lexically against a folder reached through a symlink (`/srv/pipelines` → `/data/pipelines`) matches
 * whichever spelling it was resolved from. Folders that do not exist are kept as given.
 */
export function withRealPaths(folders: readonly string[]): string[] {
  const out: string[] = [];
  for (const folder of folders) {
    const absolute = path.resolve(folder);
    out.push(absolute);
    try {
      const real = realpathSync(absolute);
      if (real !== absolute) out.push(real);
    } catch {
      // Missing: nothing inside it can be read anyway.
    }
  }
  return out;
}
