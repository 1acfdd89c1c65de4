import path from 'node:path';
import type { RealRunSettings } from '../actors/codergen/real-run-services.js';
import { createRealRunServices } from '../actors/codergen/real-run-services.js';
import { withAnswerChannel } from '../actors/interviewers/answer-channel-interviewer.js';
import type { ReadScope } from '../compiler/files/read-scope.js';
import type { CompiledMachine } from '../machines/compile-machine.js';
import type { RunRecordSink } from '../run/mirrored-run-recorder.js';
import type { RunSettings } from '../run/run-config.js';
import { createRunServices } from '../run/run-services.js';
import type { RunTreeSettings } from '../run/run-tree-service.js';
import type { RunOptions } from '../run/run-types.js';
import { definedFields } from '../shared/defined-fields.js';
import type { Identity } from '../shared/identity.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import type { SandboxSettings } from '../shared/sandbox/sandbox-settings.js';
import { parseScenarioOrReject } from './check-submission.js';
import type { HttpInterviewer } from './http-interviewer.js';
import type { RunRecord, RunRequestOptions } from './run-record.js';

/** What a stored run is executed with here, besides its record. */
export interface StoredRunContext {
  record: RunRecord;
  runDir: string;
  compiled: CompiledMachine;
  interviewer: HttpInterviewer;
  onEvent: (e: PipelineEvent) => void;
  readScope: ReadScope;
  /** What its earlier attempts spent (a resumed run). */
  initialUsage: unknown;
  /** Where it works; undefined: the process's working directory. */
  workingDir: string | undefined;
  realRuns: Pick<RealRunSettings, 'workingDir' | 'env'> | undefined;
  /** How its commands are sandboxed; undefined: the engine's default. */
  sandbox: SandboxSettings | undefined;
  recordSink: RunRecordSink | undefined;
  /** How the run keeps its working tree; none: not snapshotted. */
  tree?: RunTreeSettings | undefined;
  /** Who asked for this execution (`started_by` or `resumed_by`); undefined: nobody named. */
  identity: Identity | undefined;
}

/** What a submission says its pipeline is for (goal, default model) and where it may read: compiled and run with. */
export function requestedPipeline(
  options: RunRequestOptions,
  readScope: ReadScope,
): Pick<RunSettings, 'goal' | 'model' | 'readScope'> {
  return {
    readScope,
    ...definedFields({ goal: options.goal, model: options.model }),
  };
}

/** The run's settings and services, built as `attractor run` builds them (`createRunServices`). */
export function storedRunOptions(run: StoredRunContext): RunOptions {
  const { record, runDir } = run;
  // A run that names no folder works where the server's agents work (its start folder, for `serve`):
  // its tool commands, its agents and its snapshots all in one place.
  const workingDir = run.workingDir ?? run.realRuns?.workingDir;
  const { options } = record;
  const scenario = options.scenario !== undefined ? parseScenarioOrReject(options.scenario) : undefined;
  const { real: _real, ...services } = createRunServices({
    graph: run.compiled.graph,
    ...(options.dry_run ? { dryRun: true } : {}),
    ...definedFields({ scenario }),
    ...(options.auto_approve ? { autoApprove: true } : {}),
    // Published in the run directory too, so `attractor attach <run dir>` (or a script) can answer;
    // the first answer, HTTP or file, wins and withdraws the other.
    interviewer: withAnswerChannel(run.interviewer, () => runDir),
    ...(run.realRuns
      ? {
          real: {
            createRealRunServices,
            settings: {
              ...run.realRuns,
              ...(workingDir ? { workingDir } : {}),
              ...(options.model ? { model: options.model } : {}),
              ...definedFields({ maxCostUsd: options.max_cost_usd, initialUsage: run.initialUsage }),
            },
          },
        }
      : {}),
  });
  return {
    ...services,
    // Tool commands of simulated runs too: they run for real.
    ...(workingDir ? { workingDir } : {}),
    runDir,
    ...requestedPipeline(options, run.readScope),
    // The folder its files are in: a fork restores its tree beside it.
    manifestOptions: {
      dry_run: options.dry_run,
      server_run_id: record.id,
      ...(options.dry_run ? {} : { workdir: workingDir ?? process.cwd() }),
    },
    // Snapshots of its working folder after each node (decision 0331); every run's records are left out.
    ...(options.dry_run ? {} : { tree: { exclude: [path.dirname(path.dirname(runDir))] } }),
    ...definedFields({
      sandbox: run.sandbox,
      recordSink: run.recordSink,
      tree: run.tree,
      identity: run.identity,
    }),
    onEvent: run.onEvent,
  };
}
