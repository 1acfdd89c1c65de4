import type { FidelityMode, PipelineNode } from '../compiler/ir.js';
import type { Outcome } from '../compiler/outcome.js';
import type { EmitEvent } from '../shared/pipeline-event.js';

export interface CodergenRequest {
  node: PipelineNode;
  /** The prompt after `$goal`, `@file` and `{key}` expansion. */
  prompt: string;
  /** What the model should see of the run so far, rendered for the resolved fidelity. */
  contextSummary: string;
  fidelity: FidelityMode;
  threadId?: string;
  model?: string;
  provider?: string;
  reasoningEffort?: string;
  stageDir: string;
  signal: AbortSignal;
  emit: EmitEvent;
}

export interface CodergenResult {
  /** Written to `response.md`. */
  response: string;
  /** When the backend decides the outcome itself (else the handler infers SUCCESS). */
  outcome?: Outcome;
  /** The visit's model usage and cost, written into `status.json` as `usage`. */
  usage?: Record<string, unknown>;
}

/** Where codergen nodes get their work done: the simulated backend now, an agent session actor later. */
export interface CodergenBackend {
  readonly name: string;
  run(request: CodergenRequest): Promise<CodergenResult>;
}
