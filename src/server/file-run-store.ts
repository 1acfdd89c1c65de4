import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicAsync } from '../shared/atomic-write.js';
import { AttractorError } from '../shared/errors.js';
import { WriteLane } from '../shared/write-lane.js';
import { pageRuns } from './page-runs.js';
import { type RunRecord, RunRecordSchema, type StoredQuestion, StoredQuestionSchema } from './run-record.js';
import type { ListRunsQuery, RunPage, RunStore } from './run-store.js';

/**
 * The embedded store: one folder per run under `<dataDir>/runs/<id>/` holding `record.json`,
 * `source.dot`, `questions.json` and the run directory `run/`. Every file is replaced atomically
 * (temp file, fsync, rename), so a SIGKILL at any moment leaves either the old or the new record,
 * never half of one; records are loaded once at start and kept in memory for listing.
 *
 * The files are written behind, off the event loop (docs/decisions/0002-run-store-is-plain-files.md):
 * each run's writes are a write lane (`shared/write-lane.ts`), a file rewritten before its turn came is
 * written once with its newest content, and `flush()` resolves once everything said so far is on disk
 * (the API answers a submission only then). Memory is what readers see meanwhile.
 */
export class FileRunStore implements RunStore {
  readonly #root: string;
  readonly #records = new Map<string, RunRecord>();
  readonly #lanes = new Map<string, WriteLane>();
  // A file's newest content not yet taken by its write (one queued write per file at most).
  readonly #unwritten = new Map<string, string>();
  // Files whose queued write has not started yet: a newer content joins it.
  readonly #waiting = new Set<string>();
  readonly #questions = new Map<string, StoredQuestion[]>();

  constructor(dataDir: string) {
    this.#root = path.join(path.resolve(dataDir), 'runs');
    mkdirSync(this.#root, { recursive: true });
    for (const id of readdirSync(this.#root)) {
      const file = path.join(this.#root, id, 'record.json');
      if (!existsSync(file)) continue; // created but never recorded: nothing to show
      this.#records.set(id, this.#read(file));
    }
  }

  runDirFor(id: string): string {
    return path.join(this.#root, id, 'run');
  }

  create(record: RunRecord, source: string): void {
    if (this.#records.has(record.id))
      throw new AttractorError('RUN_EXISTS', `run ${record.id} already exists.`);
    // record.json follows it on the same lane and fsyncs their folder: one folder fsync for both.
    this.#writeBehind(record.id, path.join(this.#root, record.id, 'source.dot'), source, false);
    this.#write(record);
  }

  get(id: string): RunRecord | undefined {
    return this.#records.get(id);
  }

  source(id: string): string {
    const file = path.join(this.#root, id, 'source.dot');
    return this.#unwritten.get(file) ?? readFileSync(file, 'utf8');
  }

  update(id: string, patch: Partial<Omit<RunRecord, 'id' | 'created_at'>>): RunRecord {
    const current = this.#records.get(id);
    if (!current) throw new AttractorError('RUN_NOT_FOUND', `no run ${id}.`);
    const next = RunRecordSchema.parse({ ...current, ...patch, updated_at: new Date().toISOString() });
    this.#write(next);
    return next;
  }

  list(query: ListRunsQuery = {}): RunPage {
    return pageRuns(this.#records.values(), query);
  }

  questions(id: string): StoredQuestion[] {
    const known = this.#questions.get(id);
    if (known) return known;
    const file = path.join(this.#root, id, 'questions.json');
    if (!existsSync(file)) return [];
    return StoredQuestionSchema.array().parse(JSON.parse(readFileSync(file, 'utf8')));
  }

  saveQuestions(id: string, questions: StoredQuestion[]): void {
    this.#questions.set(id, questions);
    this.#writeBehind(
      id,
      path.join(this.#root, id, 'questions.json'),
      `${JSON.stringify(questions, null, 2)}\n`,
    );
  }

  async flush(id?: string): Promise<void> {
    const lanes = id === undefined ? [...this.#lanes.values()] : [this.#lanes.get(id)];
    await Promise.all(lanes.map((lane) => lane?.settled()));
  }

  /**
   * Resolves once everything written behind so far is on disk: a server's close (and a process exit
   * or the removal of the data directory after it) must not overtake its last records.
   */
  async close(): Promise<void> {
    // A failed write is the caller of flush()'s to hear; closing waits for the others all the same.
    await Promise.allSettled([...this.#lanes.values()].map((lane) => lane.settled()));
  }

  #write(record: RunRecord): void {
    this.#writeBehind(
      record.id,
      path.join(this.#root, record.id, 'record.json'),
      `${JSON.stringify(record, null, 2)}\n`,
    );
    this.#records.set(record.id, record);
  }

  /** Queue `file`'s new content on the run's lane, unless a write of it is queued already (it takes this). */
  #writeBehind(id: string, file: string, text: string, syncDirectory = true): void {
    this.#unwritten.set(file, text);
    if (this.#waiting.has(file)) return;
    this.#waiting.add(file);
    let lane = this.#lanes.get(id);
    if (!lane) {
      lane = new WriteLane();
      this.#lanes.set(id, lane);
    }
    lane.push(`writing ${file}`, async () => {
      this.#waiting.delete(file);
      const newest = this.#unwritten.get(file) ?? text;
      try {
        await writeFileAtomicAsync(file, newest, { syncDirectory });
      } finally {
        // Read from memory until it is on disk; a newer content queued meanwhile keeps its own entry.
        if (this.#unwritten.get(file) === newest) this.#unwritten.delete(file);
      }
    });
  }

  #read(file: string): RunRecord {
    try {
      return RunRecordSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    } catch (error) {
      throw new AttractorError(
        'STORE_CORRUPT',
        `run record ${file} is not valid: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }
}
