import type { InspectionEvent } from 'xstate';
import type { CodergenBackend } from '../actors/codergen-backend.js';
import type { HandlerServices } from '../actors/handler-types.js';
import type { Interviewer } from '../actors/interviewers/interviewer.js';
import type { HandlerRegistry } from '../actors/registry.js';
import type { Scenario } from '../actors/simulated/scenario.js';
import type { Diagnostic } from '../compiler/diagnostic.js';
import type { ReadScope } from '../compiler/files/read-scope.js';
import type { CompiledMachine } from '../machines/compile-machine.js';
import type { PipelineMachineInput } from '../machines/machine-context.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import type { SandboxSettings } from '../shared/sandbox/sandbox-settings.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { RunRecordSink } from './mirrored-run-recorder.js';
import type { RunTreeSettings } from './run-tree-service.js';

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
 * Model usage the engine reports and the budget it obeys (the agent backend keeps the books). When
 * `budgetSignal` aborts, the running node is stopped, the checkpoint written and the run ends `paused`.
 */
export interface RunAccounting {
  readonly budgetSignal?: AbortSignal;
  /** Run totals so far: written into every checkpoint (`usage`) and `pipeline.finalize`. */
  runTotals(): Record<string, unknown>;
  /** A node's latest visit totals (merged into its `node.complete`); undefined when it called no model. */
  nodeTotals(nodeId: string): Record<string, unknown> | undefined;
}

export interface RunOptions {
  /** Overrides the graph goal (`--goal`). */
  goal?: string;
  /**
   * Pipeline parameter values (`--set name=value`) for the graph's `vars`: expanded as `$name` in prompts,
   * labels and tool commands, and in the context as `vars.<name>`. A resume reuses the original values.
   */
  vars?: Record<string, string>;
  /** Default model for codergen nodes that set none (`--model`); provider likewise. */
  model?: string;
  provider?: string;
  /**
   * The run directory itself (`--logs-dir`): the run's files go directly there. Created if missing; a
   * directory already holding another run (a `manifest.json`) is refused. Excludes `runsRoot`.
   */
  runDir?: string;
  /** Root of the default layout when `runDir` is not given: `<runsRoot>/<graph>/<run id>/` (default `.attractor-runs`). */
  runsRoot?: string;
  /**
   * How commands are sandboxed (decision 0341), decided at the edge (`--sandbox`, `--unsandboxed`);
   * default: on where this machine has a sandbox, honouring a pipeline's `sandbox="off"`.
   */
  sandbox?: SandboxSettings;
  /** `--checkpoint-dir`: keep a timestamped checkpoint history there too. */
  checkpointDir?: string;
  maxSteps?: number;
  scenario?: Scenario;
  interviewer?: Interviewer;
  backend?: CodergenBackend;
  registry?: HandlerRegistry;
  llmRank?: HandlerServices['llmRank'];
  accounting?: RunAccounting;
  onEvent?: (event: PipelineEvent) => void;
  /** The pipeline's lint and scenario warnings, once, before the run's first event (also `PipelineRun.warnings`). */
  onWarnings?: (warnings: Diagnostic[]) => void;
  inspect?: (event: InspectionEvent) => void;
  /** Where the run's trace goes (`createTelemetry`; `--otel` or the OTEL_EXPORTER_OTLP_* variables): none, no trace. */
  telemetry?: Telemetry;
  /** Recorded in `manifest.json` under `options` (the CLI keeps `dry_run` and `scenario` there for resume). */
  manifestOptions?: Record<string, unknown>;
  /** Where tool commands run (default: the process's working directory). */
  workingDir?: string;
  /**
   * Where the files the pipeline names may be read from (`@file` prompts, child dotfiles); default: the
   * DOT file's folder and the working directory. The CLI adds `--allow-read`; the server its allowed folders.
   */
  readScope?: ReadScope;
  /** fsync checkpoints (default true). */
  durable?: boolean;
  /** Keep the run's record in this sink too (a database), besides its run directory. */
  recordSink?: RunRecordSink;
  /**
   * Snapshot the working directory after every node that does work, as commits on the run's own git ref
   * (decision 0331); a resume restores or materialises it. None: nothing is snapshotted (the CLI and
   * the server ask for it for every run that executes tools).
   */
  tree?: RunTreeSettings;
  random?: () => number;
}

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
  cancel(): void;
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
