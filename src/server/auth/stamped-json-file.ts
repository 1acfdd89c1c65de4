import { readFileSync, statSync } from 'node:fs';
import type { z } from 'zod';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import { AttractorError } from '../../shared/errors.js';

/**
 * A small JSON file of the data directory that a command replaces atomically (mode 0600) and a server
 * reads on each request: parsed again only when its inode, size or modification time changed, so a
 * check costs one stat. A file that does not exist reads as `empty`; one that does not match the schema
 * is a `code` error naming it.
 */
export class StampedJsonFile<T> {
  readonly file: string;
  readonly #schema: z.ZodType<T>;
  readonly #empty: T;
  readonly #code: string;
  #cached: { stamp: string; value: T } | undefined;

  constructor(file: string, schema: z.ZodType<T>, empty: T, code: string) {
    this.file = file;
    this.#schema = schema;
    this.#empty = empty;
    this.#code = code;
  }

  read(): T {
    let stamp: string;
    try {
      const stat = statSync(this.file);
      stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return this.#empty;
      throw error;
    }
    if (this.#cached?.stamp === stamp) return this.#cached.value;
    const parsed = this.#schema.safeParse(parseJson(readFileSync(this.file, 'utf8')));
    if (!parsed.success) {
      throw new AttractorError(
        this.#code,
        `${this.file} is not a file attractor wrote (${parsed.error.issues[0]?.message ?? 'invalid'}); restore it from a backup, or remove it and make its entries again.`,
      );
    }
    this.#cached = { stamp, value: parsed.data };
    return parsed.data;
  }

  write(value: T): void {
    writeFileAtomic(this.file, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
    this.#cached = undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
