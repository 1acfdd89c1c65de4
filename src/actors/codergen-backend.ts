import type { AnyActorRef } from 'xstate';
import type { FidelityMode, PipelineNode } from '../compiler/ir.js';
import type { Outcome } from '../compiler/outcome.js';
import type { EmitEvent } from '../shared/pipeline-event.js';
import type { ProcessLedger } from '../shared/process/process-ledger.js';
import type { SandboxSpec } from '../shared/sandbox/sandbox-policy.js';
import type { Interviewer } from './interviewers/interviewer.js';

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
  /** The run's working directory (where tools and external agents work); `process.cwd()` when absent. */
  workingDir?: string;
  /** The run's interviewer, for backends that must ask a human (an external agent's permission requests). */
  interviewer?: Interviewer;
  /** Secret environment variables the node and graph let through (`env_passthrough`). */
  envPassthrough?: string[];
  /** The node span's W3C trace context when the run is traced: an external agent gets it as `TRACEPARENT`. */
  traceparent?: string;
  /** The run's process ledger, for backends that start processes (external agents). */
  processes?: Pick<ProcessLedger, 'add' | 'remove'>;
  /**
   * The sandbox the node's commands run in, given the folders they work in (writable); undefined when
   * they run unsandboxed (decision 0341). Absent: the backend decides (a custom backend runs nothing).
   */
  sandbox?: (workingDirs: readonly string[]) => SandboxSpec | undefined;
  signal: AbortSignal;
  emit: EmitEvent;
  /** The codergen node's handler actor: a backend's own actors (agent sessions) are started as its children. */
  parentActor?: AnyActorRef;
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
