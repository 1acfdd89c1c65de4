import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { AttractorError } from '../shared/errors.js';
import { pageRuns } from './page-runs.js';
import { type RunRecord, RunRecordSchema, type StoredQuestion, StoredQuestionSchema } from './run-record.js';
import type { ListRunsQuery, RunPage, RunStore } from './run-store.js';

/**
 * The embedded store: one folder per run under `<dataDir>/runs/<id>/` holding `record.json`,
 * `source.dot`, `questions.json` and the run directory `run/`. Every file is replaced atomically
 * (temp file, fsync, rename), so a SIGKILL at any moment leaves either the old or the new record,
 * never half of one; records are loaded once at start and kept in memory for listing.
 */
export class FileRunStore implements RunStore {
  readonly #root: string;
  readonly #records = new Map<string, RunRecord>();

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
    writeFileAtomic(path.join(this.#root, record.id, 'source.dot'), source);
    this.#write(record);
  }

  get(id: string): RunRecord | undefined {
    return this.#records.get(id);
  }

  source(id: string): string {
    return readFileSync(path.join(this.#root, id, 'source.dot'), 'utf8');
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
    const file = path.join(this.#root, id, 'questions.json');
    if (!existsSync(file)) return [];
    return StoredQuestionSchema.array().parse(JSON.parse(readFileSync(file, 'utf8')));
  }

  saveQuestions(id: string, questions: StoredQuestion[]): void {
    writeFileAtomic(path.join(this.#root, id, 'questions.json'), `${JSON.stringify(questions, null, 2)}\n`);
  }

  #write(record: RunRecord): void {
    writeFileAtomic(path.join(this.#root, record.id, 'record.json'), `${JSON.stringify(record, null, 2)}\n`);
    this.#records.set(record.id, record);
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
