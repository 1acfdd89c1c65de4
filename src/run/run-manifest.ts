import { resolve } from 'node:path';
import { packageVersion } from '../shared/package-version.js';
import type { Prepared, RunOptions } from './run-types.js';

/** `<run dir>/manifest.json`: what a run is, written once when it starts (resume reads its options). */
export interface RunManifest {
  run_id: string;
  pipeline: string;
  goal: string;
  source_file?: string;
  source_sha256: string;
  started_at: string;
  attractor_version: string;
  options: Record<string, unknown>;
}

/** The manifest of a prepared new run. */
export function manifestOf(prepared: Prepared, options: RunOptions): RunManifest {
  const { graph } = prepared.compiled;
  return {
    run_id: prepared.runId,
    pipeline: graph.name,
    goal: graph.attrs.goal ?? '',
    // Absolute: a resume from another directory resolves the pipeline's relative paths against it.
    // A pseudo-name (`<inline>`, `<stdin>`) is no file: resolving it would name one that never existed.
    ...(graph.file && !/^<.*>$/.test(graph.file) ? { source_file: resolve(graph.file) } : {}),
    source_sha256: prepared.sha,
    started_at: new Date().toISOString(),
    attractor_version: packageVersion(),
    options: {
      max_steps: prepared.input.maxSteps,
      ...(options.model ? { model: options.model } : {}),
      ...(options.provider ? { provider: options.provider } : {}),
      ...options.manifestOptions,
    },
  };
}
