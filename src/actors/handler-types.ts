/**
 * The contract between the engine (machines/) and node handlers (actors/). Handlers never import the
 * engine: whatever they need from it (running a branch, a child pipeline, asking a human) is injected
 * through `HandlerServices`.
 */
import type { AnyActorRef } from 'xstate';
import type { FidelityMode, PipelineGraph, PipelineNode } from '../compiler/ir.js';
import type { Outcome, StageStatus } from '../compiler/outcome.js';
import type { ArtifactStore } from '../shared/artifact-store.js';
import type { EmitEvent } from '../shared/pipeline-event.js';
import type { ProcessLedger } from '../shared/process/process-ledger.js';
import type { SandboxSettings } from '../shared/sandbox/sandbox-settings.js';
import type { RunTree } from '../working-tree/run-tree.js';
import type { CodergenBackend } from './codergen-backend.js';
import type { Interviewer } from './interviewers/interviewer.js';
import type { BranchCheckpointStore } from './parallel/branch-checkpoints.js';
import type { ContextLogEntry, PipelineContext } from './pipeline-context.js';

export type ContextValues = Record<string, unknown>;

export interface BranchResult {
  branchId: string;
  /** Target node of the parallel edge that started the branch. */
  startNodeId: string;
  outcome: Outcome;
  /** The branch's context after it ran (clone of the parent's plus the branch's updates). */
  context: ContextValues;
  /** Keys the branch changed relative to the context it started from. */
  updates: ContextValues;
  /** Node where the branch stopped: the fan-in node, or its last node. */
  stoppedAt?: string;
  completedNodes: string[];
  /** Entries the branch's handlers appended with `context.appendLog` (they join the run's log). */
  logs?: ContextLogEntry[];
}

export interface ChildPipelineStatus {
  state: 'running' | 'completed' | 'failed' | 'cancelled';
  currentNode?: string;
  completedNodes: string[];
  context: ContextValues;
  outcome?: Outcome;
  /** Entries the child's handlers appended with `context.appendLog` (they join the run's log). */
  logs?: ContextLogEntry[];
  /** The child's run directory (absent when the child is known only from context keys). */
  runDir?: string;
  /** Stage directory of the node the child is running: where a manager writes its steering. */
  stageDir?: string;
}

/** A child pipeline started by a manager loop (a child actor of the engine), or one it only observes. */
export interface ChildPipelineHandle {
  status(): ChildPipelineStatus;
  /**
   * Besides `steering.md` in the stage directory (which the manager writes): put the message into a
   * child actor's context (key `manager.steer`), seen by its next node. No-op for an observed child.
   */
  steer(message: string): void;
  /** Resolves when the child finishes. */
  done: Promise<ChildPipelineStatus>;
  cancel(): void;
  /** The manager's visit is over: drop the child's checkpoint, so a later visit starts a new child. */
  forget?(): void;
}

export interface HandlerServices {
  emit: EmitEvent;
  /** The run's artifact store (large outputs by reference; over 100 KB they live in `artifacts/`). */
  artifacts?: ArtifactStore;
  interviewer: Interviewer;
  backend: CodergenBackend;
  /** false: files kept for crash safety are written atomically but not fsync'd (the run's `durable: false`). */
  durable?: boolean;
  /** Where fan-outs keep their finished branches; absent: each parallel node's stage folder (`durable` applies). */
  branchCheckpoints?: BranchCheckpointStore;
  /** The run's process ledger: process groups a handler starts are recorded there (crash safety). */
  processes?: Pick<ProcessLedger, 'add' | 'remove'>;
  /**
   * The tree of the folder this handler works in, once ready (the run's, or a branch's worktree in an
   * isolated fan-out); undefined when git is missing. None: the run keeps no snapshots.
   */
  workingTree?: () => Promise<RunTree | undefined>;
  /** How commands are sandboxed (decision 0341); absent: the default, on where this machine has a sandbox. */
  sandbox?: SandboxSettings;
  /**
   * The W3C trace context of the node's span when the run is traced: tool commands and external agents
   * get it as `TRACEPARENT`, so what they trace joins the run's trace.
   */
  traceparent?: (nodeId: string) => string | undefined;
  /** Run one parallel branch from `startNodeId` on an isolated context until a fan-in node or a dead end. */
  runBranch(request: {
    branchId: string;
    /** The parallel node fanning out: branch folders live under its stage folder. */
    parallelNodeId?: string;
    startNodeId: string;
    context: ContextValues;
    signal: AbortSignal;
    /** A folder of the branch's own (`isolation="worktree"`): its tool commands' and agents' folder. */
    workingDir?: string;
    /** That folder's tree (a fan-out inside the branch makes its worktrees from it). */
    workingTree?: () => Promise<RunTree | undefined>;
  }): Promise<BranchResult>;
  /** Start a child pipeline from a DOT file (absolute path), sharing the interviewer. */
  startChildPipeline(request: {
    dotFile: string;
    /** The manager node supervising it: the child's folder and its events' `data.parent`. */
    managerNodeId?: string;
    context: ContextValues;
    signal: AbortSignal;
    /** `stack.child_workdir`: where the child's tool commands and agents run (absolute). */
    workingDir?: string;
  }): ChildPipelineHandle;
  /**
   * Observe a pipeline run this process did not start (`stack.child_autostart=false`) through its run
   * directory's `checkpoint.json`: not started yet reads as running. Cancelling it is not ours to do.
   */
  observeChildRun?(request: { runDir: string }): ChildPipelineHandle;
  /** Ask a fast model to choose among labels/ids; undefined when no router is configured (dry-run: simulated). */
  llmRank?(request: {
    /** The node asking (for usage accounting and replay diagnostics). */
    nodeId?: string;
    /** Where the router reports its calls (usage, errors) as pipeline events. */
    emit?: EmitEvent;
    prompt: string;
    candidates: string[];
    signal: AbortSignal;
  }): Promise<string | undefined>;
}

/** One node the run has completed so far, in order (a node visited twice appears twice). */
export interface CompletedStage {
  id: string;
  status: StageStatus;
}

export interface HandlerInput {
  node: PipelineNode;
  graph: PipelineGraph;
  /**
   * The pipeline context as of entering the node: `get`/`getString` read it, `set` and `appendLog`
   * collect changes the engine applies with the outcome (its `context_updates` win over `set`).
   */
  context: PipelineContext;
  /** Root of this run's directory. */
  runDir: string;
  /** `<runDir>/<node id>`; created by the engine before the handler runs (for every node: each gets a status.json). */
  stageDir: string;
  fidelity: FidelityMode;
  threadId?: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** Nodes completed before this one, oldest first; feeds the fidelity summary (empty when absent). */
  completedNodes?: readonly CompletedStage[];
  /** Working directory for tool commands; `process.cwd()` when absent. */
  workingDir?: string;
  /** Aborted on node timeout, cancellation or a second Ctrl-C. */
  signal: AbortSignal;
  services: HandlerServices;
  /** The handler's own actor: actors it starts (agent sessions) become its children, so an inspector shows them under the node. */
  actor?: AnyActorRef;
}

/** A node handler. Throwing means FAIL with the error's message (retried when the error is retryable). */
export type NodeHandler = (input: HandlerInput) => Promise<Outcome>;
