import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { writeFileAtomic } from '../atomic-write.js';

/** The environment variable every recorded process group inherits: how resume knows a process is ours. */
export const PROCESS_TOKEN_ENV = 'ATTRACTOR_PROCESS_TOKEN';

export const ProcessEntrySchema = z.object({
  pgid: z.number().int().positive(),
  /** Unique per process group; stored in the group's environment as `ATTRACTOR_PROCESS_TOKEN`. */
  token: z.string(),
  node: z.string(),
  command: z.string(),
  started_at: z.string(),
});
export type ProcessEntry = z.infer<typeof ProcessEntrySchema>;

const LedgerSchema = z.object({ processes: z.array(ProcessEntrySchema) });

/**
 * `processes.json` in the run directory: every process group the run has started and not yet seen
 * end (tool nodes, agent shells, external agents). Each change rewrites the file atomically and
 * fsyncs it, before the process is released to do any work, so after a crash of the engine `attractor
 * resume` knows exactly which groups may still be running and stops them before re-running the node.
 */
export class ProcessLedger {
  readonly file: string;
  readonly #entries = new Map<number, ProcessEntry>();

  constructor(file: string) {
    this.file = file;
    for (const entry of readLedger(file)) this.#entries.set(entry.pgid, entry);
  }

  static forRunDir(runDir: string): ProcessLedger {
    return new ProcessLedger(path.join(runDir, 'processes.json'));
  }

  entries(): ProcessEntry[] {
    return [...this.#entries.values()];
  }

  add(entry: ProcessEntry): void {
    this.#entries.set(entry.pgid, entry);
    this.#save();
  }

  remove(pgid: number): void {
    if (!this.#entries.delete(pgid)) return;
    // A killed group may leave after its run's result, and so after its folder was deleted: with no
    // run left to resume there is nothing to record, and a write would bring the folder back.
    if (!existsSync(path.dirname(this.file))) return;
    this.#save();
  }

  #save(): void {
    writeFileAtomic(this.file, `${JSON.stringify({ processes: this.entries() }, null, 2)}\n`);
  }
}

function readLedger(file: string): ProcessEntry[] {
  if (!existsSync(file)) return [];
  try {
    return LedgerSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).processes;
  } catch {
    // Written atomically, so this is a foreign or hand-edited file: better to keep running than to
    // refuse a resume over it; the groups it named are not ours to kill without proof anyway.
    return [];
  }
}
