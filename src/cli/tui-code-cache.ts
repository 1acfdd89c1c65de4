import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../shared/atomic-write.js';

/**
 * V8's compiled code for the TUI bundle, kept beside it (D21). Named by a hash of the bundle's text and
 * the Node version: V8 checks only the text's length, so a rebuilt bundle of the same size must not find
 * the old code. The build removes caches of earlier bundles.
 */
export function codeCachePath(bundleFile: string, source: string): string {
  const hash = createHash('sha256').update(process.version).update(source).digest('hex').slice(0, 16);
  return `${bundleFile}.${hash}.v8cache`;
}

/** The cache, or undefined when there is none or it cannot be read (then the bundle compiles as usual). */
export function readCodeCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Whether a cache could be written there at all (a read-only install: no point making one). */
export function canWriteCodeCache(file: string): boolean {
  try {
    accessSync(dirname(file), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Best effort: a read-only install or a full disk only means the next start compiles again. */
export function writeCodeCache(file: string, data: Buffer): boolean {
  try {
    writeFileAtomic(file, data, { durable: false });
    return true;
  } catch {
    return false;
  }
}
