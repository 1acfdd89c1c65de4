import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as z from 'zod';
import { definedFields } from '../shared/defined-fields.js';
import { packageVersion } from '../shared/package-version.js';
import type { RunConfig } from './run-config.js';
import type { Prepared } from './run-types.js';

/** `<run dir>/manifest.json`: what a run is, written once when it starts (resume reads its options). */
export interface RunManifest {
  run_id: string;
  pipeline: string;
  goal: string;
  source_file?: string;
  source_sha256: string;
  started_at: string;
  attractor_version: string;
  /** Who started it (`RunSettings.identity`, decision 0410). */
  started_by?: string;
  options: Record<string, unknown>;
}

/** The manifest of a prepared new run. */
export function manifestOf(
  prepared: Prepared,
  config: Pick<RunConfig, 'manifestOptions' | 'identity'>,
): RunManifest {
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
    ...definedFields({ started_by: config.identity }),
    options: { max_steps: prepared.input.maxSteps, ...config.manifestOptions },
  };
}

const ForkOriginSchema = z.object({
  forked_from: z.object({ run_id: z.string(), node: z.string() }),
  forked_by: z.string().optional(),
});

/** A fork's origin and who made it, as its first `pipeline.resume` names them. */
export interface ForkOrigin {
  from: { run_id: string; node: string };
  by?: string;
}

/**
 * Where a fork came from (`forked_from` in its manifest), while it has not run yet: its first
 * `pipeline.resume` names the origin, so its event log says where its earlier records came from.
 */
export function unstartedForkOrigin(runDir: string): ForkOrigin | undefined {
  let events: string;
  try {
    events = readFileSync(join(runDir, 'events.jsonl'), 'utf8');
  } catch {
    events = '';
  }
  if (events.trim() !== '') return undefined;
  try {
    const parsed = ForkOriginSchema.safeParse(
      JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')),
    );
    if (!parsed.success) return undefined;
    const { forked_from, forked_by } = parsed.data;
    return {
      from: { run_id: forked_from.run_id, node: forked_from.node },
      ...definedFields({ by: forked_by }),
    };
  } catch {
    return undefined;
  }
}
