import { mkdir, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

let counter = 0;

/** A change whose path is already resolved and confined. */
export interface ResolvedChange {
  absolutePath: string;
  content: string | null;
}

/**
 * All-or-nothing as far as POSIX allows: every new content is first written to a temp file next to its
 * target (creating directories); only when all are staged are they renamed over their targets and the
 * deletions done. A failure while staging removes the temp files and the directories it created, leaving
 * the tree as it was.
 */
export async function applyFileChanges(changes: readonly ResolvedChange[]): Promise<void> {
  const staged: { temp: string; target: string }[] = [];
  const createdDirs: string[] = [];
  try {
    for (const change of changes) {
      if (change.content === null) continue;
      const dir = path.dirname(change.absolutePath);
      const made = await mkdir(dir, { recursive: true });
      if (made) createdDirs.push(made);
      const temp = path.join(dir, `.${path.basename(change.absolutePath)}.${process.pid}.${++counter}.tmp`);
      staged.push({ temp, target: change.absolutePath });
      await writeFile(temp, change.content);
    }
  } catch (error) {
    await Promise.all(staged.map((s) => rm(s.temp, { force: true })));
    for (const dir of createdDirs.reverse()) await rm(dir, { recursive: true, force: true });
    throw error;
  }
  for (const s of staged) await rename(s.temp, s.target);
  for (const change of changes) {
    if (change.content !== null) continue;
    // A file that a later change of the same batch recreates (a move onto itself) is not deleted.
    if (staged.some((s) => s.target === change.absolutePath)) continue;
    await unlink(change.absolutePath);
  }
}
