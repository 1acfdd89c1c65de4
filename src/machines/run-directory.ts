import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../shared/atomic-write.js';

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

/** A short, sortable, unique run id: UTC time plus random suffix. */
export function newRunId(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${Math.random().toString(36).slice(2, 8)}`;
}

export function safeSegment(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_') || 'pipeline';
}

/** Default run directory: `.attractor-runs/<graph name>/<run id>/` under the logs root. */
export function runDirectoryFor(logsRoot: string, graphName: string, runId: string): string {
  return resolve(logsRoot, safeSegment(graphName), runId);
}

/**
 * The run's folder, its copy of the pipeline and its manifest, each written atomically. `durable: false`
 * (a run that does not fsync its checkpoints) writes both without fsync; a durable run
 * fsyncs their content but not the folder: the first checkpoint, written in this same folder
 * right after, fsyncs it, and before that checkpoint there is nothing a manifest could resume.
 */
export function createRunDirectory(
  runDir: string,
  source: string,
  manifest: RunManifest,
  options: { durable?: boolean } = {},
): void {
  mkdirSync(join(runDir, 'artifacts'), { recursive: true });
  const durability = { durable: options.durable ?? true, syncDirectory: false };
  // `attractor resume DIR` compiles this copy: it must survive whatever the checkpoint survives.
  writeFileAtomic(join(runDir, 'pipeline.dot'), source, durability);
  writeFileAtomic(join(runDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, durability);
}

/** Stage directory of a node; visits after the k-th loop restart go under `restart-<k>/`. */
export function stageDirFor(runDir: string, nodeId: string, restarts: number): string {
  const base = restarts > 0 ? join(runDir, `restart-${restarts}`) : runDir;
  return join(base, safeSegment(nodeId));
}
