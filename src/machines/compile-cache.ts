import { createHash } from 'node:crypto';
import type { LoadOptions } from '../compiler/compile.js';
import { type NamedFileReader, readFromDisk } from '../compiler/files/read-named-file.js';
import type { PipelineGraph } from '../compiler/ir.js';

/** One file a compilation read, and what it found there. */
interface FileRead {
  absPath: string;
  roots: readonly string[];
  digest: string;
}

interface Entry<T> {
  value: T;
  reads: readonly FileRead[];
}

/** The options a compilation's result depends on, whatever their shape in the caller's type. */
export interface CacheableOptions extends LoadOptions {
  model?: string;
  provider?: string;
}

/**
 * Compilations by what decides their result: the source, every option (transforms, rules and an injected
 * reader by identity, since functions have no content to hash) and the content of every file the
 * compilation read. Files are checked again on each hit, so an edited `@file` prompt or child pipeline
 * compiles afresh; re-reading a prompt costs far less than compiling. Bounded, oldest out first.
 */
export class CompileCache<T> {
  readonly #entries = new Map<string, Entry<T>>();

  constructor(private readonly capacity: number) {}

  /**
   * The cached result for `input` and `options`, or `compile`'s, given a reader that records what it
   * reads. A graph object is compiled every time: it has no text to key on.
   */
  getOrCompile(
    input: string | PipelineGraph,
    options: CacheableOptions,
    compile: (readFile: NamedFileReader) => T,
  ): T {
    const reader = options.readFile ?? readFromDisk;
    const key = typeof input === 'string' ? cacheKey(input, options) : undefined;
    const hit = key === undefined ? undefined : this.#entries.get(key);
    if (hit?.reads.every((read) => digestOf(reader, read.absPath, read.roots) === read.digest)) {
      return hit.value;
    }
    const reads: FileRead[] = [];
    const value = compile((absPath, roots) => {
      const result = reader(absPath, roots);
      reads.push({ absPath, roots, digest: digestResult(result) });
      return result;
    });
    if (key !== undefined) {
      this.#entries.delete(key);
      if (this.#entries.size >= this.capacity)
        this.#entries.delete(this.#entries.keys().next().value as string);
      this.#entries.set(key, { value, reads });
    }
    return value;
  }

  get size(): number {
    return this.#entries.size;
  }
}

const identities = new WeakMap<object, number>();
let nextIdentity = 1;

/** A number per object for the process's lifetime: the same transform object gives the same key. */
function identityOf(value: object): number {
  let id = identities.get(value);
  if (id === undefined) {
    id = nextIdentity++;
    identities.set(value, id);
  }
  return id;
}

function cacheKey(source: string, options: CacheableOptions): string {
  const { transforms, rules, readFile, ...plain } = options;
  const identity = {
    transforms: transforms?.map(identityOf),
    rules: rules?.map(identityOf),
    readFile: readFile ? identityOf(readFile) : undefined,
  };
  const ordered = Object.fromEntries(Object.entries(plain).sort(([a], [b]) => a.localeCompare(b)));
  return createHash('sha256')
    .update(source)
    .update(JSON.stringify([ordered, identity]))
    .digest('hex');
}

function digestOf(reader: NamedFileReader, absPath: string, roots: readonly string[]): string {
  return digestResult(reader(absPath, roots));
}

function digestResult(result: ReturnType<NamedFileReader>): string {
  return result.ok
    ? `ok:${result.path}:${createHash('sha256').update(result.text).digest('hex')}`
    : `no:${result.problem}`;
}
