import { existsSync, mkdirSync } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runsBuiltInRouting } from '../actors/handlers/built-in-routing.js';
import type { HandlerRegistry } from '../actors/registry.js';
import { outcomeToStatusFile, readStatusFile } from '../actors/status-file.js';
import type { PipelineGraph } from '../compiler/ir.js';
import type { Outcome } from '../compiler/outcome.js';
import type { PipelineMachineInput } from '../machines/machine-context.js';
import { stageDirFor } from '../machines/stage-dir.js';
import type { StageStore, StageVisit } from '../machines/stage-store.js';
import { writeFileAtomic, writeFileAtomicAsync } from '../shared/atomic-write.js';
import { removeFile, removeFileAsync } from '../shared/remove-file.js';
import type { WriteLane } from '../shared/write-lane.js';

const statusText = (outcome: Outcome): string => `${JSON.stringify(outcomeToStatusFile(outcome), null, 2)}\n`;

/** Write a node's outcome as `<stage>/status.json` (atomically; not fsync'd, like every stage file). */
export function writeStageStatus(stageDir: string, outcome: Outcome): void {
  writeFileAtomic(join(stageDir, 'status.json'), statusText(outcome), { durable: false });
}

/**
 * A run directory's stage records: each node visit's folder and `status.json`, written as the visit
 * ends (atomically, not fsync'd: the checkpoint is the durable record).
 *
 * The run's own routing nodes (built-in start, exit and conditional handlers, which write nothing in
 * their folder) are the exception: their folders and files are made together, whenever the run's
 * `checkpoint.json` is written (`flush()`, decision 0470), rather than one per step, whose journal
 * fdatasync would commit each folder on its own. Parallel branches and child pipelines (other
 * directories) write theirs at once.
 */
export class FileStageStore implements StageStore {
  // Stage folder → the outcome its status.json gets at the next flush. A node visited again before it
  // keeps only its newest visit's (the earlier one would be overwritten unread): a loop of routing nodes
  // writes one status.json per node per checkpoint.json, not one per step.
  readonly #pending = new Map<string, Outcome>();
  readonly #lane: WriteLane | undefined;

  /**
   * `runDir`: the run whose routing nodes' records wait for its checkpoint; none: nothing waits. With a
   * `lane`, that run's records are operations of it (decision 0470), in order with its checkpoints.
   */
  constructor(
    readonly runDir?: string,
    lane?: WriteLane,
  ) {
    this.#lane = lane;
  }

  begin(visit: StageVisit, options: { scripted: boolean }): void {
    if (this.#defers(visit)) return;
    const lane = this.#queues(visit);
    if (lane) {
      lane.push(`making ${visit.stageDir}`, async () => {
        const made = await mkdir(visit.stageDir, { recursive: true });
        if (!options.scripted && made === undefined)
          await removeFileAsync(join(visit.stageDir, 'status.json'));
      });
      return;
    }
    const made = mkdirSync(visit.stageDir, { recursive: true });
    // A status.json from an earlier visit must not pass for this one's. Removing it (rather than
    // comparing mtimes) is exact: kernels stamp mtimes from a coarse clock that lags Date.now(). A
    // folder made just now (`made` names the first folder created) holds none; a scripted outcome
    // replaces it anyway.
    if (!options.scripted && made === undefined) removeFile(join(visit.stageDir, 'status.json'));
  }

  record(visit: StageVisit, outcome: Outcome, options: { keepWritten: boolean }): void {
    const lane = this.#queues(visit);
    if (this.#defers(visit)) {
      // Moved to the end: the flush writes in the order the visits ended.
      this.#pending.delete(visit.stageDir);
      this.#pending.set(visit.stageDir, outcome);
    } else if (lane) {
      const status = join(visit.stageDir, 'status.json');
      lane.push(`writing ${status}`, async () => {
        if (options.keepWritten && (await present(status))) return;
        await writeFileAtomicAsync(status, statusText(outcome), { durable: false });
      });
    }
    // A handler (or an external agent, through the status-file contract) that wrote its own keeps it.
    else if (!options.keepWritten || !existsSync(join(visit.stageDir, 'status.json')))
      writeStageStatus(visit.stageDir, outcome);
  }

  exists(stageDir: string): boolean {
    return existsSync(stageDir);
  }

  /**
   * Make every waiting folder and write its status.json: with a lane, queued as one operation; without,
   * at once, throwing what the disk refused.
   */
  flush(): void {
    const lane = this.#lane;
    if (lane) {
      const records = [...this.#pending];
      this.#pending.clear();
      if (records.length === 0) return;
      // Folders of different nodes, none fsync'd, all before the checkpoint.json that follows: made side by
      // side in one operation, not one after another (five trips to the thread pool each).
      lane.push(`writing the routing nodes' status.json files in ${this.runDir}`, async () => {
        await Promise.all(records.map(([stageDir, outcome]) => writeRoutingRecord(stageDir, outcome)));
      });
      return;
    }
    for (const [stageDir, outcome] of this.#pending) {
      mkdirSync(stageDir, { recursive: true });
      writeStageStatus(stageDir, outcome);
      // Dropped only once written: a failed write is tried again by the next flush.
      this.#pending.delete(stageDir);
    }
  }

  #defers(visit: StageVisit): boolean {
    return visit.routing && visit.runDir === this.runDir;
  }

  /** The lane a visit's writes go through: the run's own; a branch's or a child's are made at once. */
  #queues(visit: StageVisit): WriteLane | undefined {
    return visit.runDir === this.runDir ? this.#lane : undefined;
  }
}

async function writeRoutingRecord(stageDir: string, outcome: Outcome): Promise<void> {
  await mkdir(stageDir, { recursive: true });
  await writeFileAtomicAsync(join(stageDir, 'status.json'), statusText(outcome), { durable: false });
}

async function present(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * After a crash, the routing nodes completed since the run's last `checkpoint.json` may have no record,
 * or an earlier visit's (decision 0470): a resume writes those from the checkpoint before the run goes
 * on. The checkpoint keeps a node's status only (success unless it says otherwise), so a record whose
 * status differs from it is replaced, and the notes say where the new one came from.
 */
export function restoreStageRecords(
  runDir: string,
  graph: PipelineGraph,
  registry: HandlerRegistry | undefined,
  checkpoint: Pick<PipelineMachineInput, 'completedNodes' | 'nodeOutcomes' | 'restarts'>,
): string[] {
  const restored: string[] = [];
  const outcomes = checkpoint.nodeOutcomes ?? {};
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  for (const id of checkpoint.completedNodes ?? []) {
    const node = nodes.get(id);
    if (!node || !runsBuiltInRouting(registry, node.handler)) continue;
    const stageDir = stageDirFor(runDir, id, checkpoint.restarts ?? 0);
    const status = outcomes[id] ?? 'success';
    if (recordedStatus(join(stageDir, 'status.json')) === status) continue;
    mkdirSync(stageDir, { recursive: true });
    writeStageStatus(stageDir, {
      status,
      notes: `recorded on resume: the run stopped before writing ${id}'s status`,
    });
    restored.push(id);
  }
  return restored;
}

/** The `outcome` a status.json holds; undefined when there is none or it cannot be read. */
function recordedStatus(path: string): string | undefined {
  try {
    return readStatusFile(path)?.status;
  } catch {
    return undefined;
  }
}
