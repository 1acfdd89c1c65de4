import type { CodergenBackend } from '../actors/codergen-backend.js';
import type { HandlerServices } from '../actors/handler-types.js';
import type { Interviewer } from '../actors/interviewers/interviewer.js';
import type { BranchCheckpointStore } from '../actors/parallel/branch-checkpoints.js';
import type { HandlerRegistry } from '../actors/registry.js';
import type { Scenario } from '../actors/simulated/scenario.js';
import type { ArtifactStore } from '../shared/artifact-store.js';
import { AttractorError } from '../shared/errors.js';
import type { EmitEvent } from '../shared/pipeline-event.js';
import type { SandboxSettings } from '../shared/sandbox/sandbox-settings.js';
import type { ChildPipelineStore } from './child-pipeline-store.js';
import type { NodeTree } from './machine-context.js';
import type { StageStore } from './stage-store.js';

/**
 * What a caller gives a pipeline's nodes that has behaviour: the handlers, who answers gates, who does
 * the LLM work (XState's `provide()`; `RunOptions` takes the same, with the run's own services).
 */
export interface NodeServices {
  /** Handler type → handler (default: the built-in handlers). */
  registry?: HandlerRegistry;
  /** Answers human gates (`wait.human`). */
  interviewer?: Interviewer;
  /** Does the work of codergen (LLM) nodes. */
  backend?: CodergenBackend;
  /** Picks among `llm_decide` edges and ranks fan-in candidates. */
  llmRank?: HandlerServices['llmRank'];
  /** Scripted outcomes and answers (tests, dry runs). */
  scenario?: Scenario;
  /** Jitter for retry backoff (default `Math.random`). */
  random?: () => number;
}

/** The plain settings a pipeline's handlers read (`RunOptions` takes the same). */
export interface NodeSettings {
  /**
   * Where tool commands run and agents work. None: tool commands run in the process's working
   * directory, and each backend works in the folder it was made for.
   */
  workingDir?: string;
  /**
   * How commands are sandboxed (decision 0341), decided at the edge (`--sandbox`, `--unsandboxed`);
   * absent: on where this machine has a sandbox, honouring a pipeline's `sandbox="off"`.
   */
  sandbox?: SandboxSettings;
  /** fsync checkpoints and what handlers keep for crash safety, e.g. finished parallel branches (default true). */
  durable?: boolean;
}

/** What a run's own machinery gives its nodes: its stores, its recorder's hooks, its emitter and abort signal. */
export interface RunMachinery {
  /** The tree of `workingDir` (snapshots; an isolated fan-out's worktrees); none: no snapshots. */
  workingTree?: HandlerServices['workingTree'];
  artifacts?: ArtifactStore;
  /** Where process groups handlers start are recorded (so a resume can stop what a crash left). */
  processes?: HandlerServices['processes'];
  /**
   * Receives the events handlers emit, and every event of parallel branches and child pipelines (tagged
   * `data.branch` / `data.parent`). The pipeline actor's own events are `actor.on('pipeline.event')`.
   */
  emit?: EmitEvent;
  /** Aborts every running handler at once (a second Ctrl-C). */
  signal?: AbortSignal;
  /** The trace context of a node's span, for what it starts (`TRACEPARENT`); absent: no trace. */
  traceparent?: HandlerServices['traceparent'];
  /** Where fan-outs keep their finished branches (the run's recorder gives it); none: their stage folders. */
  branchCheckpoints?: BranchCheckpointStore;
  /** Where node visits are recorded (stage folders, `status.json`); none: nothing is recorded. */
  stages?: StageStore;
  /**
   * Resolves once everything the run recorded so far is on disk (its checkpoint, the visit's folder): a
   * node that does work awaits it before its handler, hooks included, starts. None: nothing to wait for.
   */
  recorded?: () => Promise<void>;
  /**
   * Snapshot the run's working tree after a node of the run's own did work (decision 0331); the next
   * node starts once it is taken. Never rejects. None: nothing is snapshotted.
   */
  snapshotTree?: (nodeId: string) => Promise<NodeTree | undefined>;
  /** Where manager loops' child pipelines come from and keep their checkpoints; none: manager loops fail. */
  childPipelines?: ChildPipelineStore;
}

/**
 * What a pipeline machine's handler actors use, given once with `providePipeline` (or
 * `machine.provide({ actors: createHandlerActors(...) })`). Nothing is simulated by default: a pipeline
 * whose human gate runs without an `interviewer`, or whose codergen node runs without a `backend`,
 * fails at that node with a clear error.
 */
export interface PipelineServices extends NodeServices, NodeSettings, RunMachinery {}

/** Stands in for an interviewer nobody gave: the first human gate fails with this. */
export function missingInterviewer(): Interviewer {
  return {
    ask: async (question) => {
      throw new AttractorError(
        'NO_INTERVIEWER',
        `human gate "${question.stage}" needs an answer, but the pipeline was started without an interviewer; pass one (e.g. a CallbackInterviewer, or AutoApproveInterviewer to approve every gate on purpose).`,
      );
    },
  };
}

/** Stands in for a codergen backend nobody gave: the first LLM node fails with this. */
export function missingBackend(): CodergenBackend {
  return {
    name: 'none',
    run: async (request) => {
      throw new AttractorError(
        'NO_BACKEND',
        `node "${request.node.id}" needs an LLM backend, but the pipeline was started without one; pass a CodergenBackend (createSimulatedBackend() simulates one on purpose).`,
      );
    },
  };
}
