import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { safeSegment } from '../machines/stage-dir.js';
import { writeFilesAtomicAsync } from '../shared/atomic-write.js';
import type { WriteLane } from '../shared/write-lane.js';
import type { RunManifest } from './run-manifest.js';

/** A short, sortable, unique run id: UTC time plus random suffix. */
export function newRunId(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Default run directory: `.attractor-runs/<graph name>/<run id>/` under the logs root. */
export function runDirectoryFor(logsRoot: string, graphName: string, runId: string): string {
  return resolve(logsRoot, safeSegment(graphName), runId);
}

/** The run's folder (and its `artifacts/`), made before its lock is taken and anything is written in it. */
export function makeRunFolder(runDir: string): void {
  mkdirSync(join(runDir, 'artifacts'), { recursive: true });
}

/**
 * A new run's copy of the pipeline and its manifest, queued first on the run's lane: written side by
 * side, fsync'd in a durable run, and renamed into place pipeline copy first, so no manifest names a
 * run without its pipeline, and both are in place before the first checkpoint (queued after them).
 * `attractor resume DIR` compiles the copy: it survives whatever the checkpoint survives. The folder is
 * not fsync'd here: the journal's creation, right after in the same folder, fsyncs it, and before the
 * first checkpoint there is nothing a manifest could resume.
 */
export function writeRunFiles(lane: WriteLane, runDir: string, source: string, manifest: RunManifest): void {
  const files = [
    { path: join(runDir, 'pipeline.dot'), data: source },
    { path: join(runDir, 'manifest.json'), data: `${JSON.stringify(manifest, null, 2)}\n` },
  ];
  lane.push(`writing ${join(runDir, 'manifest.json')} and pipeline.dot`, (batch) =>
    writeFilesAtomicAsync(files, { durable: batch.durable, syncDirectory: false }),
  );
}
