import { existsSync, readdirSync, readFileSync, rmdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { OutcomeSchema } from '../../compiler/outcome.js';
import { type LineFile, openLineFile, readLines } from '../../shared/line-file.js';
import { removeFile } from '../../shared/remove-file.js';
import type { WriteLane } from '../../shared/write-lane.js';
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

const parse = (text: string) => BranchCheckpointSchema.parse(JSON.parse(text)) as BranchCheckpoint;

/** One parallel node visit's finished branches, as the fan-out saves, restores and forgets them. */
export interface BranchCheckpointLog {
  save(checkpoint: BranchCheckpoint): Promise<void>;
  prepare(): void;
  load(): Map<string, BranchCheckpoint>;
  close(): void;
  clear(): void;
}

/**
 * Where a run keeps its fan-outs' finished branches: the run's recorder provides it (the run directory's
 * files, and a database besides when the run is kept in one), so a fan-out continued on another
 * machine finds them. `stageDir` is the parallel node's stage folder.
 */
export interface BranchCheckpointStore {
  open(stageDir: string): BranchCheckpointLog;
}

/**
 * The branches kept in each parallel node's stage folder only (`branch-results.jsonl`), written on
 * `lane` (the run's: fsync'd when the run is durable).
 */
export function fileBranchCheckpoints(lane: WriteLane): BranchCheckpointStore {
  return { open: (stageDir) => new BranchCheckpoints(stageDir, lane) };
}

/**
 * Finished branches of a parallel node's current visit, one line each in
 * `<stage dir>/branch-results.jsonl`, appended on the run's write lane (and, in a durable run,
 * fdatasync'd with its batch) the moment a branch finishes. If the run dies before the parallel node completes, the resumed visit takes these instead
 * of running the branches again, so the join sees exactly the results it would have seen; unfinished
 * branches run again from their start. The file is removed when the visit completes, so a later visit
 * (a loop) runs every branch anew.
 *
 * One file appended to rather than a file per branch (decision 0470): a branch finishing costs
 * one write (and one fsync, shared with the branches that finish in the same turn) instead of a new
 * inode, a rename and two fsyncs. A line torn by a crash does not parse and is skipped: that branch
 * runs again. Runs interrupted by earlier versions left `branch-results/<branch>.json` files: still read.
 */
export class BranchCheckpoints implements BranchCheckpointLog {
  readonly #file: string;
  readonly #legacyDir: string;
  readonly #lane: WriteLane;
  #lines: LineFile | undefined;
  #legacySeen = false;

  constructor(stageDir: string, lane: WriteLane) {
    this.#file = path.join(stageDir, 'branch-results.jsonl');
    this.#legacyDir = path.join(stageDir, 'branch-results');
    this.#lane = lane;
  }

  /** Appended under its `record.branch_id`; resolves once it is on disk (rejects with what the lane met). */
  save(checkpoint: BranchCheckpoint): Promise<void> {
    this.#lines ??= openLineFile(this.#file, this.#lane, { sync: true });
    this.#lines.append(JSON.stringify(checkpoint));
    return this.#lane.settled();
  }

  /**
   * Create the file with the lane's next batch, while the branches run, so the first branch to finish
   * does not wait for opening it. A failure stops the lane: `save` rejects with it.
   */
  prepare(): void {
    this.#lines ??= openLineFile(this.#file, this.#lane, { sync: true });
    this.#lines.open();
  }

  /** What an interrupted earlier attempt of this visit finished, by branch id (unreadable records are ignored). */
  load(): Map<string, BranchCheckpoint> {
    const found = new Map<string, BranchCheckpoint>();
    this.#loadLegacy(found);
    // Usually none (no earlier attempt of this visit): a stat is cheaper than a read that throws.
    if (!existsSync(this.#file)) return found;
    for (const saved of readLines(readFileSync(this.#file, 'utf8'), parse))
      found.set(saved.record.branch_id, saved);
    return found;
  }

  /** Stop appending (the file stays for a resume); `save` opens it again if called. */
  close(): void {
    this.#lines?.close();
    this.#lines = undefined;
  }

  /**
   * Remove what this visit saved: its visit is complete. Removed now, so the next visit's `load()` finds
   * nothing, and again after the lane's last operation on it (an open `prepare()` queued).
   */
  clear(): void {
    this.#lines?.remove();
    this.#lines = undefined;
    removeFile(this.#file);
    if (this.#legacySeen) removeLegacy(this.#legacyDir);
  }

  #loadLegacy(found: Map<string, BranchCheckpoint>): void {
    if (!existsSync(this.#legacyDir)) return;
    this.#legacySeen = true;
    for (const name of readdirSync(this.#legacyDir)) {
      if (!name.endsWith('.json')) continue;
      try {
        const saved = parse(readFileSync(path.join(this.#legacyDir, name), 'utf8'));
        found.set(saved.record.branch_id, saved);
      } catch {
        // a file we did not write whole cannot exist (atomic writes); anything else is not ours
      }
    }
  }
}

/** The folder of files earlier versions wrote (only files are ever written there). */
function removeLegacy(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) unlinkSync(path.join(dir, name));
  rmdirSync(dir);
}
