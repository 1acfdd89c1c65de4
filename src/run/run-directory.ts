import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { safeSegment } from '../machines/stage-dir.js';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { type DeferredAtomicWrite, deferredAtomicWrite } from '../shared/deferred-atomic-write.js';
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

/** A new run's pipeline copy and manifest, on their way to the disk. */
export interface RunFiles {
  /** Both in place with their content on disk; throws what the first to fail met (the other is then given up). */
  settle(): void;
  /** `settle()` off the event loop (a run whose writes go through its write lane). */
  settleAsync(): Promise<void>;
  /** The run never started: neither file appears. */
  abandon(): void;
}

/**
 * The run's copy of the pipeline and its manifest, each written atomically. `durable: false` (a run
 * that does not fsync its checkpoints) writes both without fsync and returns with them in place. A
 * durable run fsyncs their content on the thread pool while the engine starts (docs/semantics.md
 * decision 0055): neither name exists until `settle()` puts both in place (the pipeline copy first), which must
 * happen before the first checkpoint. The folder is
 * not fsync'd here either: that first checkpoint, written in this same folder right after, fsyncs it,
 * and before that checkpoint there is nothing a manifest could resume.
 */
export function writeRunFiles(
  runDir: string,
  source: string,
  manifest: RunManifest,
  options: { durable?: boolean } = {},
): RunFiles {
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  if (!(options.durable ?? true)) {
    const copy = join(runDir, 'pipeline.dot');
    const record = join(runDir, 'manifest.json');
    writeFileAtomic(copy, source, { durable: false });
    writeFileAtomic(record, manifestText, { durable: false });
    return {
      settle: () => {},
      settleAsync: async () => {},
      // Ours to remove: the run holds the folder's lock, and the folder held no manifest before it.
      abandon: () => {
        rmSync(record, { force: true });
        rmSync(copy, { force: true });
      },
    };
  }
  // `attractor resume DIR` compiles this copy: it must survive whatever the checkpoint survives.
  const pipeline = deferredAtomicWrite(join(runDir, 'pipeline.dot'), source);
  let record: DeferredAtomicWrite;
  try {
    record = deferredAtomicWrite(join(runDir, 'manifest.json'), manifestText);
  } catch (error) {
    pipeline.abandon();
    throw error;
  }
  return {
    settle(): void {
      // In the order a crash-free start writes them: no manifest names a run whose pipeline copy failed.
      try {
        pipeline.settle();
      } catch (error) {
        record.abandon();
        throw error;
      }
      record.settle();
    },
    async settleAsync(): Promise<void> {
      try {
        await pipeline.settleAsync();
      } catch (error) {
        record.abandon();
        throw error;
      }
      await record.settleAsync();
    },
    abandon(): void {
      pipeline.abandon();
      record.abandon();
    },
  };
}
