import { join } from 'node:path';
import type { WriteLane } from '../shared/commit-queue.js';
import { type LineFile, openLineFile } from '../shared/line-file.js';
import { openQueuedLineFile, type QueuedLineFile } from '../shared/queued-line-file.js';
import { readRunFile } from '../shared/read-run-file.js';
import { removePresentFile } from '../shared/remove-file.js';
import { applyCheckpointDelta, isCheckpointDelta } from './checkpoint-delta.js';

/** The journal's name in a run directory: a running run's checkpoints, one JSON line each, newest last. */
export const JOURNAL_FILE = 'checkpoint-journal.jsonl';

/** Every line the journal was ever given, kept for forks (decision 0010); read by `checkpointAtEntry`. */
export const CHECKPOINT_HISTORY_FILE = 'checkpoint-history.jsonl';

/**
 * Past this size the next durable `checkpoint.json` lets the journal start over (decision 0055).
 * Readers replay the whole journal (decision 0055): the bound is also what a read of a running run costs.
 */
export const JOURNAL_COMPACT_BYTES = 256 * 1024;

/**
 * The append-only side of a run's checkpoints (decision 0055), a line file (`shared/line-file.ts`:
 * one write per line, a torn line left by a crash ended before the next, the folder fsync'd once when the
 * file is new). Appending one line and `fdatasync`ing it is what makes a step durable: it costs no new
 * file, no rename and no directory fsync, where an atomic `checkpoint.json` costs all three at every step.
 */
export class CheckpointJournal {
  readonly path: string;
  readonly #lines: LineFile | QueuedLineFile;

  /** With a `lane`, every access to the file is an operation of it, and a line is fdatasync'd with its batch. */
  constructor(runDir: string, options: { durable: boolean; lane?: WriteLane }) {
    this.path = join(runDir, JOURNAL_FILE);
    this.#lines = options.lane
      ? openQueuedLineFile(this.path, options.lane, options)
      : openLineFile(this.path, options);
  }

  /** Bytes appended since the journal was opened or last started over. */
  get size(): number {
    return this.#lines.size;
  }

  /** Append one checkpoint (a JSON line ending in `\n`), durably when the run is durable. */
  append(line: string): void {
    this.#lines.append(line.endsWith('\n') ? line.slice(0, -1) : line);
    this.#lines.syncNow();
  }

  /**
   * Drop every line: only after a durable `checkpoint.json` holds the newest of them. Not fsync'd: lost
   * in a power cut, the old lines come back, and their newest is that same checkpoint.
   */
  startOver(): void {
    this.#lines.truncate();
  }

  /** Close and delete the journal: the run left a durable `checkpoint.json` holding its newest line. */
  remove(): void {
    if ('remove' in this.#lines) {
      this.#lines.remove();
      return;
    }
    this.close();
    removePresentFile(this.path);
  }

  close(): void {
    this.#lines.close();
  }
}

/**
 * The newest checkpoint in a run's journal, as the JSON object a checkpoint file holds (not yet
 * validated); undefined when there is no journal or no complete checkpoint in it.
 */
export function newestJournalCheckpoint(runDir: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readRunFile(join(runDir, JOURNAL_FILE));
  } catch {
    return undefined;
  }
  return foldJournal(text);
}

/**
 * Fold a journal's lines into its newest checkpoint (decision 0055). A full line starts a chain
 * (its `~` is the chain's id; a line without one, as older runs wrote, starts a chain no delta follows);
 * a delta applies when it names the current chain and is the line after the last one applied. A line
 * that does not parse (cut short by a crash) is never applied, so the deltas of its chain after it are
 * not either; those of another writer never are. The result is the newest checkpoint a reader can
 * rebuild exactly, never a mix.
 */
export function foldJournal(text: string): Record<string, unknown> | undefined {
  return eachJournalState(text, () => {});
}

/**
 * `foldJournal`, calling `visit` with the state after each line applied (the same object, changed by
 * the lines after: copy what is kept).
 */
export function eachJournalState(
  text: string,
  visit: (state: Record<string, unknown>) => void,
): Record<string, unknown> | undefined {
  let state: Record<string, unknown> | undefined;
  let chain: string | undefined;
  let index = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) continue;
    const marker: unknown = (json as Record<string, unknown>)['~'];
    if (marker === undefined || typeof marker === 'string') {
      const { '~': _, ...checkpoint } = json as Record<string, unknown>;
      state = checkpoint;
      chain = marker;
      index = 0;
      visit(state);
    } else if (
      state &&
      chain !== undefined &&
      isCheckpointDelta(json) &&
      json['~'][0] === chain &&
      json['~'][1] === index + 1 &&
      applyCheckpointDelta(state, json)
    ) {
      index += 1;
      visit(state);
    }
  }
  return state;
}
