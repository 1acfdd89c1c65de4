import { mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { type Checkpoint, CheckpointSchema, readCheckpoint } from './checkpoint.js';

/** A `checkpoint_<timestamp ms>.json` file of a checkpoint history (`--checkpoint-dir`). */
export interface CheckpointFile {
  path: string;
  /** The milliseconds in its name. */
  timestamp: number;
}

const HISTORY_NAME = /^checkpoint_(\d+)\.json$/;

/**
 * Write a checkpoint to `path` atomically and fsync'd (`Checkpoint.save_to_file`), creating its
 * folder; it is validated first, so a file this wrote always reads back.
 *
 * @example
 * saveCheckpoint(join(dir, `checkpoint_${checkpoint.timestamp}.json`), checkpoint);
 */
export function saveCheckpoint(path: string, checkpoint: Checkpoint): void {
  const valid = CheckpointSchema.parse(checkpoint);
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, `${JSON.stringify(valid)}\n`);
}

/**
 * The `checkpoint_<ms>.json` files in `dir`, newest first (by the number, not the text); empty when the
 * folder is missing. Other files are ignored.
 *
 * @example
 * const [newest] = listCheckpoints('.attractor/checkpoints');
 */
export function listCheckpoints(dir: string): CheckpointFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const files: CheckpointFile[] = [];
  for (const name of names) {
    const match = HISTORY_NAME.exec(name);
    if (match) files.push({ path: join(dir, name), timestamp: Number(match[1]) });
  }
  return files.sort((a, b) => b.timestamp - a.timestamp);
}

/**
 * The newest checkpoint of a history folder, read and validated; undefined when it holds none. A
 * corrupt newest file throws CHECKPOINT_CORRUPT rather than silently falling back to an older one.
 *
 * @example
 * const checkpoint = latestCheckpoint('.attractor/checkpoints');
 * if (checkpoint) resumePipeline({ from: checkpoint.run_dir ?? '.' });
 */
export function latestCheckpoint(dir: string): Checkpoint | undefined {
  const [newest] = listCheckpoints(dir);
  return newest ? readCheckpoint(newest.path) : undefined;
}
