import type { HandlerActorLogic } from '../actors/handler-actor-logic.js';
import type { ContextLogEntry } from '../actors/pipeline-context.js';
import type { Outcome } from '../compiler/outcome.js';
import type { GraphLookup } from './graph-lookup.js';
import type { NodeTree, PipelineMachineContext } from './machine-context.js';
import type { PipelineMachine } from './pipeline-machine.js';
import type { NodeSettings, PipelineServices } from './pipeline-services.js';

/** What a handler actor is invoked with: the node, and the pipeline context as of entering it. */
export interface HandlerInvocationInput {
  node: string;
  context: PipelineMachineContext;
}

/** Handler actors resolve with this; `llmChoice` is the router model's pick for `llm_decide` edges. */
export interface HandlerActorOutput {
  outcome: Outcome;
  llmChoice?: string;
  /** Entries the handler and its hooks appended with `context.appendLog`. */
  logs?: ContextLogEntry[];
  /**
   * For a RETRY: the jitter of its backoff, a draw in [0, 1) from the run's `random`. Drawn here, where
   * the run's services are, so the machine stays a pure function of its events and the `node.retry`
   * event can say how long the wait is (none: no jitter).
   */
  retryJitter?: number;
  /** The working tree's snapshot after the visit (the run's own nodes that do work). */
  tree?: NodeTree;
}

/** The actor logic of a pipeline's `handler.<type>` actors. */
export type PipelineHandlerActor = HandlerActorLogic<HandlerActorOutput, HandlerInvocationInput>;

/** The input a persisted handler snapshot carried (the machine's snapshot check has vouched for its shape). */
export function restoreInvocationInput(value: unknown): HandlerInvocationInput | undefined {
  if (typeof value !== 'object' || value === null || !('node' in value) || !('context' in value))
    return undefined;
  const { node, context } = value;
  return typeof node === 'string' && typeof context === 'object' && context !== null
    ? ({ node, context } as HandlerInvocationInput)
    : undefined;
}

/** What every handler actor of one pipeline (and its parallel branches) shares. */
export interface InvocationRuntime {
  lookup: GraphLookup;
  services: PipelineServices;
  /** The machine these actors belong to: parallel branches are more actors of it. */
  machine(): PipelineMachine;
  /**
   * The machine of a child pipeline's DOT file (read inside the graph's read scope), bound to the same
   * services (but its own working directory); `source` is the text it was compiled from.
   */
  childMachine(
    dotFile: string,
    options?: Pick<NodeSettings, 'workingDir'>,
  ): { machine: PipelineMachine; startAt: string; sha: string };
  /**
   * How many more levels of child pipelines may start under this pipeline (`stack.max_depth` of it and
   * of every pipeline above it): at 0 a manager loop fails instead of starting one.
   */
  childLevels: number;
  /**
   * The same machine with its handler actors bound to these services but `overrides`: a branch working
   * in a folder of its own (`isolation="worktree"`).
   */
  machineWith(overrides: Pick<PipelineServices, 'workingDir' | 'workingTree'>): PipelineMachine;
  /** Handler invocations so far (for yielding to the event loop). */
  steps: number;
  /** Resolves once the records made before the last yield are written (`paceSteps`). */
  recordedAtLastYield?: Promise<void> | undefined;
}
