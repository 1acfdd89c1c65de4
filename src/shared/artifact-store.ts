import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { AttractorError } from './errors.js';

export interface ArtifactInfo {
  id: string;
  name: string;
  size_bytes: number;
  stored_at: string;
  is_file_backed: boolean;
}

/** Values larger than this go to `<run dir>/artifacts/<id>.json` instead of staying in memory. */
export const FILE_BACKED_THRESHOLD_BYTES = 100 * 1024;

const INDEX_FILE = '.index.json';

/**
 * Large outputs that nodes hand to each other by reference: small values stay in memory,
 * anything over 100 KB is written atomically under `artifacts/` and read back on `retrieve`.
 *
 * @example
 * const info = store.store('test-report', hugeText);   // info.is_file_backed === true above 100 KB
 * store.retrieve(info.id) === hugeText;
 */
export class ArtifactStore {
  readonly #dir: string;
  readonly #memory = new Map<string, unknown>();
  readonly #infos = new Map<string, ArtifactInfo>();
  #counter = 0;

  /** Reopens the run's artifacts: a resumed run retrieves what was stored before the interruption. */
  constructor(runDir: string) {
    this.#dir = join(runDir, 'artifacts');
    this.#load();
  }

  store(name: string, value: unknown, id = this.#nextId(name)): ArtifactInfo {
    const text = JSON.stringify(value);
    if (text === undefined)
      throw new AttractorError('ARTIFACT_INVALID', `artifact ${name} is not JSON-serialisable.`);
    const size = Buffer.byteLength(text);
    const fileBacked = size > FILE_BACKED_THRESHOLD_BYTES;
    this.remove(id);
    if (fileBacked) writeFileAtomic(this.#path(id), text, { durable: false });
    else this.#memory.set(id, JSON.parse(text));
    const info: ArtifactInfo = {
      id,
      name,
      size_bytes: size,
      stored_at: new Date().toISOString(),
      is_file_backed: fileBacked,
    };
    this.#infos.set(id, info);
    this.#persist();
    return info;
  }

  retrieve(id: string): unknown {
    const info = this.#infos.get(id);
    if (!info) throw new AttractorError('ARTIFACT_NOT_FOUND', `Artifact not found: ${id}`);
    if (!info.is_file_backed) return this.#memory.get(id);
    return JSON.parse(readFileSync(this.#path(id), 'utf8')) as unknown;
  }

  has(id: string): boolean {
    return this.#infos.has(id);
  }

  list(): ArtifactInfo[] {
    return [...this.#infos.values()];
  }

  remove(id: string): boolean {
    const info = this.#infos.get(id);
    if (!info) return false;
    this.#infos.delete(id);
    this.#memory.delete(id);
    if (info.is_file_backed && existsSync(this.#path(id))) rmSync(this.#path(id));
    this.#persist();
    return true;
  }

  clear(): void {
    for (const id of [...this.#infos.keys()]) this.remove(id);
  }

  /**
   * `artifacts/.index.json`: every artifact's info, and the value of those kept in memory, so they
   * outlive the process. Artifacts are stored rarely (not per step), so rewriting the index is cheap.
   */
  #persist(): void {
    const entries = [...this.#infos.values()].map((info) =>
      info.is_file_backed ? info : { ...info, value: this.#memory.get(info.id) },
    );
    writeFileAtomic(
      join(this.#dir, INDEX_FILE),
      `${JSON.stringify({ counter: this.#counter, artifacts: entries })}\n`,
    );
  }

  #load(): void {
    const file = join(this.#dir, INDEX_FILE);
    if (!existsSync(file)) return;
    const index = JSON.parse(readFileSync(file, 'utf8')) as {
      counter?: number;
      artifacts?: Array<ArtifactInfo & { value?: unknown }>;
    };
    this.#counter = index.counter ?? 0;
    for (const { value, ...info } of index.artifacts ?? []) {
      this.#infos.set(info.id, info);
      if (!info.is_file_backed) this.#memory.set(info.id, value);
    }
  }

  #path(id: string): string {
    return join(this.#dir, `${id}.json`);
  }

  #nextId(name: string): string {
    const slug = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40) || 'artifact';
    this.#counter += 1;
    return `${slug}-${this.#counter}`;
  }
}
