import type { Diagnostic } from '../compiler/diagnostic.js';
import type { CompiledMachine } from '../machines/compile-machine.js';
import type { PipelineMachineInput } from '../machines/machine-context.js';
import type { Identity } from '../shared/identity.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import type { RunSettings } from './run-config.js';
import type { RunServices } from './run-services.js';

/** The engine's option and result types, shared by start, resume and the executor. */
export type RunQuality = 'clean' | 'degraded' | 'failed';

export interface RunResult {
  status: 'completed' | 'failed' | 'paused' | 'cancelled';
  quality: RunQuality;
  runId: string;
  runDir: string;
  /** Where the run stopped: the exit node, the failing node, or the node a resume runs next. */
  stoppedAt?: string;
  failure?: { node?: string; reason: string };
  context: Record<string, unknown>;
  completedNodes: string[];
  /** Nodes whose outcome was FAIL at some point. */
  failedNodes: string[];
  /** Those of `failedNodes` whose latest visit succeeded: repaired, so they do not degrade the run. */
  recoveredNodes: string[];
  /** A completed run that ended at a node with no eligible edge, not at an exit (quality `degraded`). */
  deadEnd?: { node: string; reason: string };
  /** Nodes whose last outcome was PARTIAL_SUCCESS. */
  partialNodes: string[];
  /** True when `resume` found the run already finished and did nothing. */
  alreadyFinished?: boolean;
  /** Set when the run paused because its cost budget was spent (the reason, for the message). */
  budgetExceeded?: string;
  /** Model usage and cost of the whole run, when the run kept accounts. */
  usage?: Record<string, unknown>;
}

/**
 * Everything a run can be given, flat, as `startPipeline`, `runPipeline` and `resumePipeline` take it:
 * its settings (plain data, resolved once into a `RunConfig`) and its services (what has behaviour).
 */
export interface RunOptions extends RunSettings, RunServices {}

export interface StartOptions extends RunOptions {
  /** DOT source; `file` is its path (locations, `@file` prompts, child dotfiles). */
  source: string;
  file?: string;
  /** The source compiled for this run already (`compileRun` with the same options): not compiled again. */
  compiled?: CompiledMachine;
  /** The run's id, when its caller has named the run already (the server's id is the run's `run_id`). */
  runId?: string;
}

/** A run in progress: pause (finish the node, checkpoint, stop) or cancel (abort now). */
export interface PipelineRun {
  runId: string;
  runDir: string;
  /** Lint warnings of the pipeline that runs (errors stop it before it starts). */
  warnings: Diagnostic[];
  result: Promise<RunResult>;
  /**
   * The run's events as an async iterable, besides `onEvent`: every event of this run (from its
   * `pipeline.start` or `pipeline.resume`, however late the iterator is made: earlier ones are read
   * back from `events.jsonl`), then live ones, ending when the run ends. Never slows the run: unread
   * events wait in the iterator; `break` unsubscribes. A resume that found the run finished yields none.
   *
   * @example
   * for await (const event of run.events()) console.log(event.kind, event.node_id);
   */
  events(): AsyncIterableIterator<PipelineEvent>;
  pause(): void;
  /** `by`: who cancels it, recorded as the `pipeline.cancelled` event's `cancelled_by` (decision 0410). */
  cancel(by?: Identity): void;
}

/** A run ready to execute (fresh or resumed). */
export interface Prepared {
  compiled: CompiledMachine;
  source: string;
  sha: string;
  runId: string;
  runDir: string;
  input: PipelineMachineInput;
  fresh: boolean;
  warnings: Diagnostic[];
  /** A resume of a failed run: the node it starts again at and why the run had failed. */
  afterFailure?: { node: string; reason: string };
  /** A fork's first start: the run and node it was forked from. */
  forkedFrom?: { run_id: string; node: string };
  /** Who made that fork. */
  forkedBy?: string;
}

/** A resume continues in the run's own directory, so it takes neither `runDir` nor `runsRoot`. */
export interface ResumeOptions extends Omit<RunOptions, 'runDir' | 'runsRoot' | 'vars'> {
  /** The run's pipeline compiled already (`compileRun` with the checkpoint's `checkpointVars`). */
  compiled?: CompiledMachine;
  /** A run directory, or a checkpoint file. */
  from: string;
  /** The DOT file, when the run directory's copy should not be used (it must be the same pipeline). */
  dotFile?: string;
}

export function partialNodesOf(nodeOutcomes: Readonly<Record<string, string>>): string[] {
  return Object.keys(nodeOutcomes).filter((id) => nodeOutcomes[id] === 'partial_success');
}
