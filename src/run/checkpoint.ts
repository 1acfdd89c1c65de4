import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as z from 'zod';
import { ContextLogEntrySchema } from '../actors/pipeline-context.js';
import { StageStatusSchema } from '../compiler/outcome.js';
import { writeFileAtomicAsync } from '../shared/atomic-write.js';
import { AttractorError } from '../shared/errors.js';
import { openLineFile } from '../shared/line-file.js';
import { readRunFile } from '../shared/read-run-file.js';
import type { WriteLane } from '../shared/write-lane.js';
import {
  type CheckpointParts,
  chainStartText,
  checkpointDelta,
  checkpointText,
  type WrittenCheckpoint,
  writtenCheckpoint,
} from './checkpoint-delta.js';
import {
  CHECKPOINT_HISTORY_FILE,
  JOURNAL_COMPACT_BYTES,
  JOURNAL_FILE,
  newestJournalCheckpoint,
} from './checkpoint-journal.js';

/**
 * `checkpoint.json` (docs/semantics.md): the fields, plus what our resume needs. Its size
 * depends on the context, never on the run's length.
 */
export const CheckpointSchema = z.object({
  timestamp: z.number(),
  /** The node a resume runs next (the interrupted node, or the next one after a completed node). */
  current_node: z.string(),
  completed_nodes: z.array(z.string()),
  node_retries: z.record(z.string(), z.number().int().nonnegative()),
  context: z.record(z.string(), z.unknown()),
  /** Handlers' `context.appendLog` entries, oldest first. */
  logs: z.array(ContextLogEntrySchema).default([]),
  pipeline: z.string(),
  run_id: z.string(),
  status: z.enum(['running', 'completed', 'failed', 'paused', 'cancelled']),
  /** Goal gates' and non-success outcomes; a completed node absent here succeeded. */
  node_outcomes: z.record(z.string(), StageStatusSchema).default({}),
  steps: z.number().int().nonnegative().default(0),
  restarts: z.number().int().nonnegative().default(0),
  failed_nodes: z.array(z.string()).default([]),
  failure: z.object({ node: z.string().optional(), reason: z.string() }).optional(),
  /** Declaration index of the edge that led to `current_node` (its fidelity and thread id apply on resume). */
  arrived_by: z.number().int().nonnegative().optional(),
  /** The run directory, so a copy in the `--checkpoint-dir` history can find its run. */
  run_dir: z.string().optional(),
  /** sha256 of the DOT source the run started from; resume refuses another pipeline. */
  source_sha256: z.string(),
  /** Model usage and cost of the run so far (a resume continues counting from here). */
  usage: z.record(z.string(), z.unknown()).optional(),
  /** The newest snapshot of the run's working tree: a commit on `refs/attractor/runs/<run_id>` (decision 0331). */
  tree_head: z.string().optional(),
  /** Each node's snapshot commit (its latest visit that took one). */
  tree_commits: z.record(z.string(), z.string()).optional(),
  /** Nodes whose latest snapshot was skipped, and why (`budget`, `too-many-files`). */
  tree_skipped: z.record(z.string(), z.string()).optional(),
});
export type Checkpoint = z.infer<typeof CheckpointSchema>;

export interface CheckpointWriterOptions {
  runDir: string;
  /**
   * Where the writes go (decision 0470): each one an operation of this lane, run off the event loop in
   * order; the lane decides whether they are fsync'd (a durable run's is).
   */
  lane: WriteLane;
  /** `--checkpoint-dir`: keep a timestamped history there too. */
  historyDir?: string;
  /** The run directory was made just now: it holds no checkpoint.json to look for. */
  fresh?: boolean;
  /**
   * Runs before every `checkpoint.json` write, and throws to fail it: what the file must never be
   * ahead of goes to disk here (the routing nodes' stage records, decision 0470).
   */
  beforeSnapshot?: () => void;
  /**
   * Keep every checkpoint in `checkpoint-history.jsonl` too (decision 0010): what a fork from any node
   * the run reached starts from. Same lines as the journal, never emptied, not fsync'd.
   */
  keepHistory?: boolean;
}

/** A chain's id: unique enough that two writers on one journal (they should not be) never share one. */
const newChainId = (): string => randomBytes(6).toString('base64url');

/**
 * The run's checkpoints (decision 0470). Each one is appended to the journal first (fdatasync'd with
 * its lane's batch: the step is safe from there on); `checkpoint.json` follows when the engine flushes
 * it (before a node that does work starts) or as soon as the run waits for anything, and at once,
 * fsync'd, when the run stops and when the journal has grown past its bound. Between routing nodes the
 * newest checkpoint can be in the journal only, which `readCheckpoint` takes over `checkpoint.json`. A
 * journal line after the first holds only what changed since the line before it (decision 0470).
 */
export function createCheckpointWriter(options: CheckpointWriterOptions) {
  const path = join(options.runDir, 'checkpoint.json');
  const { lane, historyDir } = options;
  if (historyDir) mkdirSync(historyDir, { recursive: true });
  const journal = openLineFile(join(options.runDir, JOURNAL_FILE), lane, { sync: true });
  const history = options.keepHistory
    ? openLineFile(join(options.runDir, CHECKPOINT_HISTORY_FILE), lane, { sync: false })
    : undefined;
  // A durable snapshot fsyncs its content but not the folder: the journal, whose newest line is this
  // same checkpoint, is emptied or deleted only after the rename, and a journalling file system commits
  // the two in that order; whichever survives a power cut, a reader finds this checkpoint (decision 0470).
  const replace = (file: string, text: string, sync: boolean) =>
    lane.push(`writing the checkpoint ${file}`, (batch) =>
      writeFileAtomicAsync(file, text, { durable: sync && batch.durable, syncDirectory: false }),
    );
  let lastStamp = 0;
  let snapshotExists = options.fresh ? false : existsSync(path);
  // The journal's newest line, its chain and its place there; undefined when the next line must be full.
  let chained: { written: WrittenCheckpoint; chain: string; index: number } | undefined;
  // The newest checkpoint not yet in checkpoint.json, written when the run next waits (one write for a
  // burst of instant steps, and at every step of a run whose nodes take any time).
  let pending: WrittenCheckpoint | undefined;
  let refresh: NodeJS.Immediate | undefined;
  const writeSnapshot = (text: string, sync: boolean): void => {
    options.beforeSnapshot?.();
    pending = undefined;
    if (refresh) clearImmediate(refresh);
    refresh = undefined;
    replace(path, text, sync);
    snapshotExists = true;
  };
  const flush = (): void => {
    if (pending !== undefined) writeSnapshot(checkpointText(pending.parts, pending.objectTexts), false);
    else options.beforeSnapshot?.();
  };
  return {
    path,
    /** Record one checkpoint: the header, and the context as the machine keeps it (values, visit counts). */
    write(parts: CheckpointParts): void {
      const written = writtenCheckpoint(parts);
      let full: string | undefined;
      const text = (): string => {
        full ??= checkpointText(parts, written.objectTexts);
        return full;
      };
      const running = parts.header.status === 'running';
      // A run directory has its checkpoint.json from the first step on (resume looks for it): written
      // before the journal, so no crash leaves a journal without it.
      const first = running && !snapshotExists;
      if (first) writeSnapshot(text(), false);
      const index = chained ? chained.index + 1 : 0;
      const delta = chained && checkpointDelta(chained.written, written, chained.chain, index);
      const chain = delta && chained ? chained.chain : newChainId();
      // Until the line is appended whole, the next one must not count on it: it starts a chain of its own.
      chained = undefined;
      const line = delta ? JSON.stringify(delta) : chainStartText(text(), chain).slice(0, -1);
      journal.append(line);
      history?.append(line);
      chained = { written, chain, index: delta ? index : 0 };
      if (!running) {
        // The run stops here: checkpoint.json alone is its record, as the run layout says.
        writeSnapshot(text(), true);
        journal.remove();
        chained = undefined;
      } else if (journal.size > JOURNAL_COMPACT_BYTES) {
        writeSnapshot(text(), true);
        journal.truncate();
        // An emptied journal starts a new chain: its first line must hold the whole checkpoint.
        chained = undefined;
      } else if (!first) {
        pending = written;
        // Between steps nothing else can report a failure: the lane stops the run with it.
        refresh ??= setImmediate(flush);
      }
      if (historyDir) {
        // Same-millisecond checkpoints would collide: keep names unique and ordered.
        const stamp = Math.max(parts.header.timestamp, lastStamp + 1);
        lastStamp = stamp;
        // Resume can start from a history copy too: never leave one half-written.
        replace(join(historyDir, `checkpoint_${stamp}.json`), text(), false);
      }
    },
    /** Bring checkpoint.json up to date now (before a node that does work starts, for instance). */
    flush,
    /** The run is over (however it ended): bring checkpoint.json up to date and let the journal go. */
    close(): void {
      flush();
      journal.close();
      history?.close();
    },
  };
}

/**
 * Read and validate a checkpoint file. For a run directory's `checkpoint.json`, the newest checkpoint in
 * the run's journal wins when there is one (a run that crashed, or is still running, docs/semantics.md
 * decision 0470) — unless `checkpoint.json` is further along, which only a journal whose chain broke can
 * leave behind.
 */
export function readCheckpoint(path: string): Checkpoint {
  const journaled = basename(path) === 'checkpoint.json' ? newestJournalCheckpoint(dirname(path)) : undefined;
  if (journaled === undefined) return validCheckpoint(parseCheckpointFile(path), path);
  const fromJournal = validCheckpoint(journaled, join(dirname(path), JOURNAL_FILE));
  let snapshot: Checkpoint | undefined;
  try {
    snapshot = validCheckpoint(parseCheckpointFile(path), path);
  } catch {
    // Being replaced, or not written yet: the journal's is the checkpoint.
  }
  return snapshot && snapshot.steps > fromJournal.steps ? snapshot : fromJournal;
}

function parseCheckpointFile(path: string): unknown {
  let text: string;
  try {
    text = readRunFile(path);
  } catch {
    throw new AttractorError('CHECKPOINT_NOT_FOUND', `cannot read checkpoint ${path}.`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AttractorError(
      'CHECKPOINT_CORRUPT',
      `checkpoint ${path} is not valid JSON (was it truncated?).`,
    );
  }
}

/** The checkpoint in `json`; a clear error naming `source` (the file it came from) when it is not one. */
function validCheckpoint(json: unknown, source: string): Checkpoint {
  const parsed = CheckpointSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AttractorError(
      'CHECKPOINT_CORRUPT',
      `checkpoint ${source} is not an Attractor checkpoint: ${issue?.path.join('.') || 'root'}: ${issue?.message ?? 'invalid'}.`,
    );
  }
  return parsed.data;
}
