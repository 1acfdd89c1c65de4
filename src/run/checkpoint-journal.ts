import { join } from 'node:path';
import { readRunFile } from '../shared/read-run-file.js';
import { applyCheckpointDelta, isCheckpointDelta } from './checkpoint-delta.js';

/** The journal's name in a run directory: a running run's checkpoints, one JSON line each, newest last. */
export const JOURNAL_FILE = 'checkpoint-journal.jsonl';

/** Every line the journal was ever given, kept for forks (decision 0010); read by `checkpointAtEntry`. */
export const CHECKPOINT_HISTORY_FILE = 'checkpoint-history.jsonl';

/**
 * Past this size the next durable `checkpoint.json` lets the journal start over (decision 0470).
 * Readers replay the whole journal (decision 0470): the bound is also what a read of a running run costs.
 */
export const JOURNAL_COMPACT_BYTES = 256 * 1024;

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
 * Fold a journal's lines into its newest checkpoint (decision 0470). A full line starts a chain
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
