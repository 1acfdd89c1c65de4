import { join, resolve } from 'node:path';
import * as z from 'zod';
import { readPendingQuestions } from '../actors/interviewers/answer-channel.js';
import { definedFields } from '../shared/defined-fields.js';
import { readRunFile } from '../shared/read-run-file.js';
import { type Checkpoint, readCheckpoint } from './checkpoint.js';
import { readLastExecution } from './read-last-execution.js';
import { isRunLockHeld } from './run-lock.js';
import { deriveRunStatus, type RunStatus } from './run-status.js';
import type { RunQuality } from './run-types.js';

/** The part of `manifest.json` a run list shows; the rest may be anything a version of us wrote. */
const ManifestHeadSchema = z.object({
  run_id: z.string(),
  pipeline: z.string(),
  started_at: z.string(),
  forked_from: z.object({ run_id: z.string(), node: z.string() }).optional(),
  started_by: z.string().optional(),
  forked_by: z.string().optional(),
});

/** One run as `attractor runs` lists it (its `--json` items use these names). */
export interface RunSummary {
  id: string;
  pipeline: string;
  status: Exclude<RunStatus, 'queued'>;
  /** The node running, waiting, or next to run; where a finished run stopped. */
  current_node?: string;
  started_at: string;
  /** From the start to the last checkpoint (to now, while it runs). */
  duration_ms: number;
  /** What its models cost (catalog prices); absent when it called none. */
  cost_usd?: number;
  run_dir: string;
  /** How its latest execution ended (`clean`, `degraded`, `failed`); absent while it has not. */
  quality?: RunQuality;
  forked_from?: { run_id: string; node: string };
  /** Who started it, made it as a fork, resumed its latest execution, cancelled it (decision 0410). */
  started_by?: string;
  forked_by?: string;
  resumed_by?: string;
  cancelled_by?: string;
}

/**
 * The summary of the run in `runDir`; undefined when it holds no run (no readable manifest). A
 * checkpoint that cannot be read leaves the run listed, as interrupted before its first step.
 */
export function readRunSummary(runDir: string, now: () => number = Date.now): RunSummary | undefined {
  let head: z.infer<typeof ManifestHeadSchema>;
  try {
    head = ManifestHeadSchema.parse(JSON.parse(readRunFile(join(runDir, 'manifest.json'))));
  } catch {
    return undefined;
  }
  let checkpoint: Checkpoint | undefined;
  try {
    checkpoint = readCheckpoint(join(runDir, 'checkpoint.json'));
  } catch {
    checkpoint = undefined;
  }
  const lockHeld = isRunLockHeld(runDir);
  const status = deriveRunStatus({
    ...(checkpoint ? { checkpointStatus: checkpoint.status } : {}),
    lockHeld,
    openQuestion: lockHeld && readPendingQuestions(runDir).length > 0,
  });
  const started = Date.parse(head.started_at);
  const until = status === 'running' || status === 'waiting' ? now() : (checkpoint?.timestamp ?? started);
  const last = readLastExecution(runDir);
  const cost = checkpoint?.usage?.['cost_usd'];
  const calls = checkpoint?.usage?.['calls'];
  return {
    id: head.run_id,
    pipeline: head.pipeline,
    status,
    ...(checkpoint ? { current_node: checkpoint.current_node } : {}),
    started_at: head.started_at,
    duration_ms: Number.isFinite(started) ? Math.max(0, until - started) : 0,
    ...(typeof cost === 'number' && typeof calls === 'number' && calls > 0 ? { cost_usd: cost } : {}),
    run_dir: resolve(runDir),
    // A run going on now has no ending yet, whatever its log says of an earlier one.
    ...(last.quality && status !== 'running' && status !== 'waiting' ? { quality: last.quality } : {}),
    ...definedFields({
      forked_from: head.forked_from,
      started_by: head.started_by,
      forked_by: head.forked_by,
      resumed_by: last.resumed_by,
    }),
    ...(status === 'cancelled' && last.cancelled_by !== undefined ? { cancelled_by: last.cancelled_by } : {}),
  };
}
