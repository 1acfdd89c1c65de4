import type { ReadScope } from '../compiler/files/read-scope.js';
import type { NodeSettings } from '../machines/pipeline-services.js';
import type { Identity } from '../shared/identity.js';
import {
  type SandboxSettings,
  sandboxOrDefault,
  sandboxSettingsForRun,
} from '../shared/sandbox/sandbox-settings.js';
import type { RunTreeSettings } from './run-tree-service.js';

/**
 * What a run is and how it runs, as its caller says it: plain data, every field optional (the input half
 * of `RunOptions`; `RunServices` is the other half). `startPipeline` / `resumePipeline` resolve it once
 * into a `RunConfig` (decision 0461).
 */
export interface RunSettings extends NodeSettings {
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
  /** `--checkpoint-dir`: keep a timestamped checkpoint history there too. */
  checkpointDir?: string;
  maxSteps?: number;
  /** Recorded in `manifest.json` under `options` (the CLI keeps `dry_run` and `scenario` there for resume). */
  manifestOptions?: Record<string, unknown>;
  /**
   * Where the files the pipeline names may be read from (`@file` prompts, child dotfiles); default: the
   * DOT file's folder and the working directory. The CLI adds `--allow-read`; the server its allowed folders.
   */
  readScope?: ReadScope;
  /**
   * Snapshot the working directory after every node that does work, as commits on the run's own git ref
   * (decision 0331); a resume restores or materialises it. None: nothing is snapshotted (the CLI and
   * the server ask for it for every run that executes tools).
   */
  tree?: RunTreeSettings;
  /**
   * Who starts or resumes the run (decision 0410): `started_by` in its manifest and `pipeline.start`,
   * `resumed_by` in `pipeline.resume`. Absent: nobody is named.
   */
  identity?: Identity;
}

/**
 * How one run runs, resolved from its `RunSettings` once its folder is known: every default applied, so
 * nothing below `executeRun` defaults a setting again. What the run is (its compiled pipeline, ids,
 * folder and machine input) is its `Prepared`; what has behaviour, its `RunServices`.
 */
export interface RunConfig {
  /** `NodeSettings.workingDir`: none keeps each backend in its own folder, so it stays unresolved. */
  workingDir: string | undefined;
  /** The folder the run's snapshots record (an isolated fan-out's too): `workingDir`, or the process's. */
  treeDir: string;
  /** fsync checkpoints and what handlers keep for crash safety. */
  durable: boolean;
  /** The edge's sandbox (or this machine's default) with this run's folder writable and other runs hidden. */
  sandbox: SandboxSettings;
  checkpointDir: string | undefined;
  tree: RunTreeSettings | undefined;
  /** What a new run's `manifest.json` keeps under `options` besides `max_steps`. */
  manifestOptions: Record<string, unknown>;
  /** Who starts or resumes it; undefined: nobody is named. */
  identity: Identity | undefined;
}

/** The config of the run in `runDir`, from what its caller said. */
export function resolveRunConfig(settings: RunSettings, runDir: string): RunConfig {
  return {
    workingDir: settings.workingDir,
    treeDir: settings.workingDir ?? process.cwd(),
    durable: settings.durable ?? true,
    sandbox: sandboxSettingsForRun(sandboxOrDefault(settings.sandbox), runDir, settings.runsRoot),
    checkpointDir: settings.checkpointDir,
    tree: settings.tree,
    manifestOptions: {
      ...(settings.model ? { model: settings.model } : {}),
      ...(settings.provider ? { provider: settings.provider } : {}),
      ...settings.manifestOptions,
    },
    identity: settings.identity,
  };
}
