import { existsSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { RealRunSettings } from '../actors/codergen/real-run-services.js';
import type { ReadScope } from '../compiler/files/read-scope.js';
import { readCheckpoint } from '../run/checkpoint.js';
import { checkpointVars, compileRun, resumePipeline, startPipeline } from '../run/engine.js';
import type { RunTreeSettings } from '../run/run-tree-service.js';
import type { PipelineRun, RunResult } from '../run/run-types.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import type { Identity } from '../shared/identity.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import type { SandboxSettings } from '../shared/sandbox/sandbox-settings.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { ApiError } from './api-error.js';
import { HttpInterviewer } from './http-interviewer.js';
import { summaryFromLog } from './logged-run-summary.js';
import { applyNodeStatus, type NodeStatus } from './node-statuses.js';
import type { NotifiedRun } from './notify/notification.js';
import type { RunNotifier } from './notify/run-notifier.js';
import { RunEventHub } from './run-event-hub.js';
import { type RunRecord, TERMINAL_STATUSES } from './run-record.js';
import type { RunStore } from './run-store.js';
import { emptyRunSummary, foldRunSummary, type RunSummary } from './run-summary.js';
import { runWorkingDir, type WorkingDirPolicy } from './run-working-dir.js';
import { serverReadScope } from './server-read-scope.js';
import { requestedPipeline, storedRunOptions } from './stored-run-options.js';
import { toolsNotAllowed } from './tools-not-allowed.js';

/** A run executing in this process. */
export interface LiveRun {
  run?: PipelineRun;
  settled?: Promise<void>;
  /** Stopped by a drain while waiting at a gate, or by a lost lease: recorded as interrupted, not cancelled. */
  interrupting?: boolean;
  hub: RunEventHub;
  interviewer: HttpInterviewer;
  statuses: Map<string, NodeStatus>;
  summary: RunSummary;
  /** A worker's run that reached a gate: it stops, checkpointed, and waits for an answer as `waiting`. */
  releasing?: boolean;
  /** Whom notifications name: the run's id and pipeline. */
  notified: NotifiedRun;
  /**
   * The gate a continued run stopped at: it asks its question again, already notified (and usually
   * already answered), so that first asking is not news.
   */
  askedBefore?: string;
  /** Who cancelled it (`cancelLiveRun`): its record says so once it has stopped. */
  cancelledBy?: Identity;
}

/** Cancel a live run on behalf of `by`: its `pipeline.cancelled` event and its record name them. */
export function cancelLiveRun(live: LiveRun, by: Identity | undefined): void {
  if (by !== undefined) live.cancelledBy = by;
  live.run?.cancel(by);
}

/**
 * What a process that executes runs (the one-process server, a worker) is told about how they execute:
 * the part of `RunExecutorOptions` its owner takes as given, optional where the executor has a default.
 */
export type RunExecutionSettings = Partial<Pick<RunExecutorOptions, 'allowDirs' | 'workingDirs'>> &
  Pick<RunExecutorOptions, 'allowTools' | 'realRuns' | 'sandbox' | 'telemetry' | 'notifier'>;

export interface RunExecutorOptions {
  store: RunStore;
  /**
   * Whether this process was started with `--allow-tools`: without it a run whose pipeline runs commands
   * fails before it starts, whatever the server that accepted it allowed.
   */
  allowTools: boolean;
  /** The only folders runs may read named files from (`--allow-dir`): see `serverReadScope`. */
  allowDirs: readonly string[];
  /** Runs that call real models: where their agents work and their keys; absent: only simulated runs. */
  realRuns?: Pick<RealRunSettings, 'workingDir' | 'env'>;
  /** How runs' commands are sandboxed (`serverSandbox`, decision 0341); absent: the engine's default. */
  sandbox?: SandboxSettings;
  /** Where runs' tool commands and agents work (`runWorkingDir`). */
  workingDirs: WorkingDirPolicy;
  /** Who hears that a gate waits, was answered, or a run ended (`--notify`); absent: nobody. */
  notifier?: RunNotifier;
  /** Where runs' traces go (`--otel`, OTEL_EXPORTER_OTLP_*); absent: not traced. */
  telemetry?: Telemetry;
  /** A worker's runs stop at a gate (checkpointed, `waiting`) and continue when it is answered. */
  releaseAtGates: boolean;
  /** Hears that run `id` stopped executing here, once its record says how. */
  onStopped?: (id: string) => void;
  /**
   * Runs that work in a folder of their own or a named one snapshot it after every node, and
   * their snapshots travel with them (decision 0331): to the store, or to `remote`.
   */
  snapshots?: { remote?: string };
}

/**
 * Executes stored runs in this process, for a one-process server and for a worker alike: compiles a
 * run's record, starts or resumes it in its run directory, keeps its events, statuses and summary while
 * it runs, and writes how it stopped back to the store.
 */
export class RunExecutor {
  readonly #options: RunExecutorOptions;
  readonly #store: RunStore;
  readonly #live = new Map<string, LiveRun>();
  readonly #settled = new Set<Promise<unknown>>();

  constructor(options: RunExecutorOptions) {
    this.#options = options;
    this.#store = options.store;
  }

  /** How many runs execute here now. */
  get size(): number {
    return this.#live.size;
  }

  live(id: string): LiveRun | undefined {
    return this.#live.get(id);
  }

  readScope(sourceFile: string): ReadScope {
    return serverReadScope(sourceFile, this.#options.allowDirs);
  }

  /**
   * Start (or resume, from its run directory's checkpoint) stored run `id`. Undefined when it could not
   * start: then it is recorded `failed` with the reason.
   */
  start(id: string): LiveRun | undefined {
    const record = this.#store.get(id);
    if (!record) throw new ApiError(404, 'RUN_NOT_FOUND', `no pipeline run ${id}.`);
    const live = this.#open(record);
    this.#live.set(id, live);
    let run: PipelineRun;
    try {
      run = this.#launch(record, live);
    } catch (error) {
      if (this.#live.get(id) === live) this.#live.delete(id);
      const failure = AttractorError.isInstance(error)
        ? { reason: error.describe(), code: error.code }
        : { reason: String(error) };
      this.#store.update(id, { status: 'failed', failure });
      live.hub.finish('failed');
      return undefined;
    }
    this.#track(id, live, run);
    return live;
  }

  /**
   * Runs going on here pause at their next node (checkpointed); one waiting at a human gate has nothing
   * to finish, so it stops at once, `interrupted` with its question still pending. Resolves when all
   * have stopped, or after `graceMs`.
   */
  async drain(graceMs: number): Promise<void> {
    for (const live of this.#live.values()) {
      if (live.interviewer.waiting > 0) {
        live.interrupting = true;
        live.run?.cancel();
      } else {
        live.run?.pause();
      }
    }
    const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([Promise.allSettled([...this.#settled]), grace]);
  }

  #open(record: RunRecord): LiveRun {
    const releaseAtGates = this.#options.releaseAtGates;
    const interviewer = new HttpInterviewer(
      record.id,
      this.#store,
      () =>
        // After the question is recorded and the gate waits on it (the same turn): nothing holds a worker.
        queueMicrotask(() => {
          if (!releaseAtGates || interviewer.waiting === 0 || live.releasing) return;
          live.releasing = true;
          live.run?.cancel();
        }),
      { released: releaseAtGates },
    );
    const live: LiveRun = {
      hub: new RunEventHub(record.run_dir),
      interviewer,
      statuses: new Map(),
      summary: emptyRunSummary(),
      notified: { id: record.id, pipeline: record.name },
    };
    return live;
  }

  /** The run's pipeline compiled once, for the run and its services (a resume with the values it started with). */
  #launch(record: RunRecord, live: LiveRun): PipelineRun {
    const { id, options } = record;
    const runDir = this.#store.runDirFor(id);
    // Before anything of the pipeline runs: a folder this process may not use fails the run here.
    const workingDir = runWorkingDir(options.working_dir, this.#options.workingDirs, runDir);
    const checkpointPath = path.join(runDir, 'checkpoint.json');
    const resumed = existsSync(checkpointPath) ? readCheckpoint(checkpointPath) : undefined;
    const source = this.#store.source(id);
    const vars = resumed ? checkpointVars(resumed) : options.vars;
    if (resumed) live.askedBefore = resumed.current_node;
    const readScope = this.readScope(record.source_file);
    const compiled = compileRun({
      source,
      file: record.source_file,
      ...requestedPipeline(options, readScope),
      ...definedFields({ vars }),
    });
    const refused = toolsNotAllowed(compiled.graph, {
      allowTools: this.#options.allowTools,
      dryRun: options.dry_run,
      who: this.#options.workingDirs.who,
    });
    if (refused) throw refused;
    const runOptions = storedRunOptions({
      record,
      runDir,
      compiled,
      interviewer: live.interviewer,
      onEvent: (event) => this.#heard(live, event),
      readScope,
      initialUsage: resumed?.usage,
      workingDir,
      realRuns: this.#options.realRuns,
      sandbox: this.#options.sandbox,
      recordSink: this.#store.recordSink?.(id),
      tree: this.#treeSettings(record, workingDir, runDir),
      // Who asked for this execution: the last resume's asker, or who submitted (or forked) it.
      identity: resumed ? record.resumed_by : record.started_by,
    });
    if (this.#options.telemetry) runOptions.telemetry = this.#options.telemetry;
    if (resumed) {
      // A resumed run goes on from what its earlier attempts spent and when it first started.
      live.summary = summaryFromLog(runDir);
      const { runDir: _fresh, ...resumeOptions } = runOptions;
      return resumePipeline({ ...resumeOptions, from: runDir, compiled });
    }
    // Killed before its first checkpoint: nothing ran that a resume could keep; start over beside it.
    if (existsSync(runDir)) renameSync(runDir, `${runDir}.abandoned-${Date.now()}`);
    return startPipeline({
      ...runOptions,
      runId: id,
      source,
      file: record.source_file,
      compiled,
      ...definedFields({ vars: options.vars }),
    });
  }

  /**
   * How run `record` keeps its working tree here: none for a dry run or one in the process's own folder.
   * A run's own folder (in this machine's data folder) is the engine's: a continuation resets it to the
   * last snapshot; a named folder is kept as it is, as a resume keeps it.
   */
  #treeSettings(
    record: RunRecord,
    workingDir: string | undefined,
    runDir: string,
  ): RunTreeSettings | undefined {
    const snapshots = this.#options.snapshots;
    if (!snapshots || !workingDir || record.options.dry_run) return undefined;
    return {
      // Every run's folder is `<runs>/<id>/run`: no run's records are its files.
      exclude: [path.dirname(path.dirname(runDir))],
      ...(record.options.working_dir === undefined ? { restore: true } : {}),
      ...(snapshots.remote ? { remote: snapshots.remote } : {}),
    };
  }

  #heard(live: LiveRun, event: PipelineEvent): void {
    applyNodeStatus(live.statuses, event);
    live.summary = foldRunSummary(live.summary, event);
    live.hub.publish(event);
    if (this.#options.notifier) this.#notify(live, event);
  }

  #notify(live: LiveRun, event: PipelineEvent): void {
    if (event.kind === 'interview.start' && event.node_id === live.askedBefore) {
      live.askedBefore = undefined;
      return;
    }
    // The continuation starts that gate's visit again first; any other visit means it has moved on.
    if (
      (event.kind === 'node.start' && event.node_id !== live.askedBefore) ||
      event.kind === 'interview.start'
    )
      live.askedBefore = undefined;
    // Released at a gate (a worker) or stopped by a drain: the run has not ended, it goes on later.
    if (event.kind === 'pipeline.finalize' && (live.releasing || live.interrupting)) return;
    try {
      this.#options.notifier?.heard(live.notified, event);
    } catch (error) {
      // A notification that cannot even be queued (a full disk) is the operator's to hear, not the run's.
      process.stderr.write(
        `attractor: a notification of run ${live.notified.id} was not queued: ${String(error)}\n`,
      );
    }
  }

  #track(id: string, live: LiveRun, run: PipelineRun): void {
    live.run = run;
    // A continuation (after a gate, a takeover) is not the attempt that stopped: no ending of that one shows.
    this.#store.update(id, {
      status: 'running',
      run_dir: run.runDir,
      quality: undefined,
      failure: undefined,
      stopped_at: undefined,
    });
    const settled = run.result.then(
      (result) => this.#finish(id, result),
      (error: unknown) => this.#finish(id, undefined, error),
    );
    live.settled = settled;
    this.#settled.add(settled);
    void settled.finally(() => this.#settled.delete(settled));
  }

  #finish(id: string, result: RunResult | undefined, error?: unknown): void {
    const live = this.#live.get(id);
    this.#live.delete(id);
    const status = live?.releasing
      ? 'waiting'
      : live?.interrupting
        ? 'interrupted'
        : (result?.status ?? 'failed');
    // A run released at a gate has not ended: the cancel that stopped it here is no failure of it.
    const ended = status !== 'waiting';
    this.#store.update(id, {
      status,
      ...(result && ended ? { quality: result.quality } : {}),
      ...(status === 'cancelled' && live?.cancelledBy !== undefined
        ? { cancelled_by: live.cancelledBy }
        : {}),
      ...(result?.stoppedAt && ended ? { stopped_at: result.stoppedAt } : {}),
      ...(!ended
        ? {}
        : result?.failure
          ? { failure: result.failure }
          : error !== undefined
            ? { failure: { reason: error instanceof Error ? error.message : String(error) } }
            : {}),
    });
    if (TERMINAL_STATUSES.has(status)) this.#store.saveQuestions(id, []);
    live?.hub.finish(status);
    this.#options.onStopped?.(id);
  }
}
