import { dirname } from 'node:path';
import { AttractorError } from './errors.js';
import { readConfinedFile } from './read-confined-file.js';

/** Larger than any checkpoint, journal or record a run writes; a file past it is not one of ours. */
export const MAX_RUN_FILE_BYTES = 256 * 1024 * 1024;

/**
 * The text of a file in a run directory (a checkpoint, the journal, the manifest, a lock, a question),
 * read as `readConfinedFile` reads: a FIFO, device or folder put in its place is refused without being
 * opened (opening a FIFO with no writer would block the process for good), and so is a link leading out
 * of its folder. Throws `RUN_FILE_UNREADABLE` (missing included), which its callers treat as "no such
 * record".
 */
export function readRunFile(file: string, maxBytes = MAX_RUN_FILE_BYTES): string {
  const read = readConfinedFile(file, { roots: [dirname(file)], maxBytes });
  if (read.ok) return read.text;
  throw new AttractorError('RUN_FILE_UNREADABLE', `cannot read ${file}: ${read.reason}.`);
}
