import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { conditionalHandler } from '../actors/handlers/conditional.js';
import { exitHandler } from '../actors/handlers/exit.js';
import { startHandler } from '../actors/handlers/start.js';
import type { HandlerRegistry } from '../actors/registry.js';
import { outcomeToStatusFile, readStatusFile } from '../actors/status-file.js';
import type { PipelineGraph } from '../compiler/ir.js';
import type { Outcome } from '../compiler/outcome.js';
import type { PipelineMachineInput } from '../machines/machine-context.js';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { stageDirFor } from './run-directory.js';

/** Write a node's outcome as `<stage>/status.json` (atomically; not fsync'd, like every stage file). */
export function writeStageStatus(stageDir: string, outcome: Outcome): void {
  writeFileAtomic(
    join(stageDir, 'status.json'),
    `${JSON.stringify(outcomeToStatusFile(outcome), null, 2)}\n`,
    {
      durable: false,
    },
  );
}

const ROUTING = new Set([startHandler, exitHandler, conditionalHandler]);
/** The types the default registry maps to those handlers. */
const ROUTING_TYPES = new Set(['start', 'exit', 'conditional']);

/**
 * Whether the node runs a built-in routing handler (start, exit, conditional): one that does nothing but
 * succeed, writes nothing in its folder and is not overridden by the run's registry (none: the default).
 */
export function runsBuiltInRouting(registry: HandlerRegistry | undefined, handlerType: string): boolean {
  if (!registry) return ROUTING_TYPES.has(handlerType);
  try {
    return ROUTING.has(registry.get(handlerType));
  } catch {
    return false;
  }
}

/**
 * The stage folders and `status.json` files of a run's routing nodes, made together rather than one per
 * step (docs/decisions.md D29.1). A burst of routing nodes would otherwise create a folder and a file at
 * every step, and each step's journal fdatasync would commit them one by one; made in one go, the file
 * system commits them once. `flush()` runs whenever the run's `checkpoint.json` is written (so it never
 * names a node whose record is missing) and at the run's end.
 */
export class StageRecords {
  readonly #pending: { stageDir: string; outcome: Outcome }[] = [];

  /** The run directory whose routing nodes are recorded here (branches and children write their own). */
  constructor(readonly runDir: string) {}

  defer(stageDir: string, outcome: Outcome): void {
    this.#pending.push({ stageDir, outcome });
  }

  /** Make every pending folder and write its status.json, oldest first; throws what the disk refused. */
  flush(): void {
    while (this.#pending.length > 0) {
      const record = this.#pending[0];
      if (!record) break;
      mkdirSync(record.stageDir, { recursive: true });
      writeStageStatus(record.stageDir, record.outcome);
      // Dropped only once written: a failed write is tried again by the next flush.
      this.#pending.shift();
    }
  }
}

/**
 * After a crash, the routing nodes completed since the run's last `checkpoint.json` may have no record,
 * or an earlier visit's (D29.1): a resume writes those from the checkpoint before the run goes on. The
 * checkpoint keeps a node's status only (success unless it says otherwise), so a record whose status
 * differs from it is replaced, and the notes say where the new one came from.
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
