import { existsSync, readdirSync, readFileSync, renameSync, rmdirSync, unlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { OutcomeSchema } from '../../compiler/outcome.js';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import type { BranchResult } from '../handler-types.js';
import { ContextLogEntrySchema } from '../pipeline-context.js';
import { type ParallelResult, ParallelResultSchema } from './parallel-result.js';

const BranchCheckpointSchema = z.object({
  record: ParallelResultSchema,
  result: z.object({
    branchId: z.string(),
    startNodeId: z.string(),
    outcome: OutcomeSchema,
    context: z.record(z.string(), z.unknown()),
    updates: z.record(z.string(), z.unknown()),
    stoppedAt: z.string().optional(),
    completedNodes: z.array(z.string()),
    logs: z.array(ContextLogEntrySchema).optional(),
  }),
});
export type BranchCheckpoint = { record: ParallelResult; result: BranchResult };

/** Folders renamed aside by `clear` and not removed yet, by path. */
const removing = new Map<string, Promise<void>>();

/** Resolves once every folder `clear` set aside in this process is gone (a run awaits it before it ends). */
export async function branchCheckpointsCleared(): Promise<void> {
  while (removing.size > 0) await Promise.all(removing.values());
}

/** Remove a folder holding only files, by hand rather than with `rmSync({recursive})` (a JavaScript rimraf). */
function removeTree(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) unlinkSync(path.join(dir, name));
  rmdirSync(dir);
}

/**
 * Finished branches of a parallel node's current visit, one fsync'd file each under
 * `<stage dir>/branch-results/`, written the moment a branch finishes. If the run dies before the
 * parallel node completes, the resumed visit takes these instead of running the branches again, so the
 * join sees exactly the results it would have seen; unfinished branches run again from their start.
 * The folder is removed when the visit completes, so a later visit (a loop) runs every branch anew.
 */
export class BranchCheckpoints {
  readonly #dir: string;
  readonly #durable: boolean;

  /** `durable: false` (a run that does not fsync its checkpoints either) skips the fsyncs. */
  constructor(stageDir: string, options: { durable?: boolean } = {}) {
    this.#dir = path.join(stageDir, 'branch-results');
    this.#durable = options.durable ?? true;
  }

  save(branchId: string, checkpoint: BranchCheckpoint): void {
    writeFileAtomic(this.#file(branchId), `${JSON.stringify(checkpoint)}\n`, { durable: this.#durable });
  }

  /** What an interrupted earlier attempt of this visit finished, by branch id (unreadable files are ignored). */
  load(): Map<string, BranchCheckpoint> {
    const found = new Map<string, BranchCheckpoint>();
    // What a process that died while removing a finished visit's folder left: never this visit's.
    if (!removing.has(this.#trash) && existsSync(this.#trash)) removeTree(this.#trash);
    if (!existsSync(this.#dir)) return found;
    for (const name of readdirSync(this.#dir)) {
      if (!name.endsWith('.json')) continue;
      try {
        const parsed = BranchCheckpointSchema.parse(
          JSON.parse(readFileSync(path.join(this.#dir, name), 'utf8')),
        );
        found.set(parsed.record.branch_id, parsed as BranchCheckpoint);
      } catch {
        // a file we did not write whole cannot exist (atomic writes); anything else is not ours
      }
    }
    return found;
  }

  /**
   * Take the folder away in one step: renamed aside (so no later visit, in this process or after a
   * crash, can load it), then removed on the thread pool. Between the last branch finishing and the
   * parallel node completing, which the fan-out benchmark times, that is one system call instead of
   * one per branch. If the name aside is still taken (its removal not done yet), removed in place.
   */
  clear(): void {
    const trash = this.#trash;
    if (!removing.has(trash)) {
      try {
        renameSync(this.#dir, trash);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return; // never made: no branch finished in this visit
        if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
        removeTree(this.#dir);
        return;
      }
      const removal = rm(trash, { recursive: true, force: true })
        // Best effort: a folder left aside is removed by the next visit's `load`.
        .catch(() => {})
        .finally(() => removing.delete(trash));
      removing.set(trash, removal);
      return;
    }
    removeTree(this.#dir);
  }

  get #trash(): string {
    return `${this.#dir}.removing`;
  }

  #file(branchId: string): string {
    return path.join(this.#dir, `${encodeURIComponent(branchId)}.json`);
  }
}
