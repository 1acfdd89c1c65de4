import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ContextLogEntrySchema } from '../actors/pipeline-context.js';
import { StageStatusSchema } from '../compiler/outcome.js';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { AttractorError } from '../shared/errors.js';

/**
 * `checkpoint.json` (docs/decisions.md): the seeds' fields, plus what our resume needs. Its size
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
});
export type Checkpoint = z.infer<typeof CheckpointSchema>;

export interface CheckpointWriterOptions {
  runDir: string;
  /** `--checkpoint-dir`: keep a timestamped history there too. */
  historyDir?: string;
  durable?: boolean;
}

export function createCheckpointWriter(options: CheckpointWriterOptions) {
  const path = join(options.runDir, 'checkpoint.json');
  if (options.historyDir) mkdirSync(options.historyDir, { recursive: true });
  let lastStamp = 0;
  return {
    path,
    /**
     * `contextJson` is the context as JSON text: the engine serialises the values and the visit counts
     * straight to text, since building the merged object first costs a copy of every key per step.
     */
    write(checkpoint: Omit<Checkpoint, 'context'>, contextJson: string): void {
      // Compact: the checkpoint is rewritten at every step, so its size is its cost.
      const rest = JSON.stringify(checkpoint);
      const text = `${rest.slice(0, -1)},"context":${contextJson}}\n`;
      writeFileAtomic(path, text, { durable: options.durable ?? true });
      if (options.historyDir) {
        // Same-millisecond checkpoints would collide: keep names unique and ordered.
        const stamp = Math.max(checkpoint.timestamp, lastStamp + 1);
        lastStamp = stamp;
        // Resume can start from a history copy too: never leave one half-written.
        writeFileAtomic(join(options.historyDir, `checkpoint_${stamp}.json`), text, { durable: false });
      }
    },
  };
}

export function readCheckpoint(path: string): Checkpoint {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new AttractorError('CHECKPOINT_NOT_FOUND', `cannot read checkpoint ${path}.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AttractorError(
      'CHECKPOINT_CORRUPT',
      `checkpoint ${path} is not valid JSON (was it truncated?).`,
    );
  }
  const parsed = CheckpointSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AttractorError(
      'CHECKPOINT_CORRUPT',
      `checkpoint ${path} is not an Attractor checkpoint: ${issue?.path.join('.') || 'root'}: ${issue?.message ?? 'invalid'}.`,
    );
  }
  return parsed.data;
}
