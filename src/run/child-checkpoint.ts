import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { ContextLogEntrySchema } from '../actors/pipeline-context.js';
import { MAX_NAMED_FILE_BYTES } from '../compiler/files/read-named-file.js';
import { StageStatusSchema } from '../compiler/outcome.js';
import type { ChildCheckpoint, ChildPipelineStore } from '../machines/child-pipeline-store.js';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { AttractorError } from '../shared/errors.js';
import { readConfinedFile } from '../shared/read-confined-file.js';
import { observeChildRun } from './observe-child-run.js';

const ChildCheckpointSchema = z.object({
  source_sha256: z.string(),
  status: z.string(),
  current_node: z.string(),
  completed_nodes: z.array(z.string()),
  node_outcomes: z.record(z.string(), StageStatusSchema),
  node_retries: z.record(z.string(), z.number()),
  context: z.record(z.string(), z.unknown()),
  steps: z.number(),
  restarts: z.number(),
  failed_nodes: z.array(z.string()),
  arrived_by: z.number().optional(),
  logs: z.array(ContextLogEntrySchema).default([]),
}) satisfies z.ZodType<ChildCheckpoint, unknown>;

const FILE = 'checkpoint.json';

/**
 * Manager loops' child pipelines on disk: the DOT file a manager names, and the child's own checkpoint
 * in `<manager node>/child/checkpoint.json`, written (fsync'd) at every step of the child like the run's.
 * When the manager node runs again after a crash, the child continues from there instead of starting
 * over; a child that had already finished reports its result without running again. The manager clears
 * it when its visit completes.
 */
export const fileChildPipelines: ChildPipelineStore = {
  read(dotFile, scope) {
    const read = readConfinedFile(dotFile, { roots: scope.roots, maxBytes: MAX_NAMED_FILE_BYTES });
    if (!read.ok) {
      throw new AttractorError(
        read.problem === 'outside' ? 'FILE_NOT_ALLOWED' : 'CHILD_PIPELINE_NOT_FOUND',
        `cannot read child pipeline ${dotFile}: ${read.reason}.`,
      );
    }
    return { source: read.text, sha256: createHash('sha256').update(read.text).digest('hex') };
  },
  checkpoint(childDir, sha256) {
    const file = join(childDir, FILE);
    if (!existsSync(file)) return undefined;
    try {
      const checkpoint = ChildCheckpointSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
      return checkpoint.source_sha256 === sha256 ? checkpoint : undefined;
    } catch {
      return undefined;
    }
  },
  saveCheckpoint(childDir, checkpoint) {
    writeFileAtomic(join(childDir, FILE), `${JSON.stringify(checkpoint)}\n`);
  },
  clearCheckpoint(childDir) {
    rmSync(join(childDir, FILE), { force: true });
  },
  observe: observeChildRun,
};
