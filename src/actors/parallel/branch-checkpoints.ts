import { existsSync, readdirSync, readFileSync, rmdirSync, unlinkSync } from 'node:fs';
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
   * Remove the folder and its files (only files are ever written here). By hand rather than with
   * `rmSync({recursive})`, whose JavaScript rimraf stats every entry: this runs between the last
   * branch finishing and the parallel node completing, which the fan-out benchmark times.
   */
  clear(): void {
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch {
      return; // never made: no branch finished in this visit
    }
    for (const name of names) unlinkSync(path.join(this.#dir, name));
    rmdirSync(this.#dir);
  }

  #file(branchId: string): string {
    return path.join(this.#dir, `${encodeURIComponent(branchId)}.json`);
  }
}
