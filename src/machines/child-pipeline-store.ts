import type { ChildPipelineHandle } from '../actors/handler-types.js';
import type { ContextLogEntry } from '../actors/pipeline-context.js';
import type { ReadScope } from '../compiler/files/read-scope.js';
import type { StageStatus } from '../compiler/outcome.js';
import type { DeepReadonly } from '../shared/deep-readonly.js';
import { AttractorError } from '../shared/errors.js';

/** What a manager loop's child keeps between steps, so a re-run manager continues it. */
export type ChildCheckpoint = DeepReadonly<ChildCheckpointShape>;

interface ChildCheckpointShape {
  source_sha256: string;
  status: string;
  current_node: string;
  completed_nodes: string[];
  node_outcomes: Record<string, StageStatus>;
  node_retries: Record<string, number>;
  context: Record<string, unknown>;
  steps: number;
  restarts: number;
  failed_nodes: string[];
  arrived_by?: number;
  logs: ContextLogEntry[];
}

/** Where a manager loop's child pipelines come from and keep their checkpoints. */
export interface ChildPipelineStore {
  /** A child pipeline's DOT source (by the path a manager node names, read inside `scope`) and its sha256. */
  read(dotFile: string, scope: ReadScope): { source: string; sha256: string };
  /** The child's checkpoint in `childDir`, when it is one of this same source. */
  checkpoint(childDir: string, sha256: string): ChildCheckpoint | undefined;
  saveCheckpoint(childDir: string, checkpoint: ChildCheckpoint): void;
  clearCheckpoint(childDir: string): void;
  /** A child run another process executes (`stack.child_autostart=false`), seen from outside. */
  observe(runDir: string): ChildPipelineHandle;
}

const missing = (): never => {
  throw new AttractorError(
    'NO_CHILD_PIPELINES',
    'a manager loop needs a child pipeline, but the pipeline was started without a store for them (providePipeline gives one).',
  );
};

/** For a machine given no store: a manager loop fails at its node, saying why. */
export const noChildPipelines: ChildPipelineStore = {
  read: missing,
  checkpoint: () => undefined,
  saveCheckpoint() {},
  clearCheckpoint() {},
  observe: missing,
};
