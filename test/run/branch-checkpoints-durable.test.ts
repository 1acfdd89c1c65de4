import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

// Records whether each file is written to be fsync'd (branch results, the manifest), passing every call through.
const opened = vi.hoisted(() => [] as Array<{ file: string; durable: boolean | undefined }>);
vi.mock('../../src/shared/atomic-write.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/shared/atomic-write.js')>();
  return {
    ...real,
    writeFilesAtomicAsync: (files: { path: string; data: string }[], options?: { durable?: boolean }) => {
      for (const file of files) opened.push({ file: file.path, durable: options?.durable });
      return real.writeFilesAtomicAsync(files, options);
    },
  };
});
vi.mock('../../src/shared/line-file.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/shared/line-file.js')>();
  return {
    ...real,
    openLineFile: (
      file: string,
      lane: import('../../src/shared/write-lane.js').WriteLane,
      options: { sync: boolean },
    ) => {
      const lines = real.openLineFile(file, lane, options);
      return {
        ...lines,
        append: (line: string) => {
          opened.push({ file, durable: lane.durable && options.sync });
          lines.append(line);
        },
      };
    },
  };
});

const { createDefaultRegistry } = await import('../../src/actors/registry.js');
const { startPipeline } = await import('../../src/run/engine.js');
const { tempDir } = await import('../helpers/run-helpers.js');

const PIPELINE = `digraph fan {
  start [shape=Mdiamond]
  fan [shape=component]
  a [type="ok"]
  b [type="ok"]
  join [shape=tripleoctagon]
  exit [shape=Msquare]
  start -> fan
  fan -> a -> join
  fan -> b -> join
  join -> exit
}`;

describe('finished branches and the manifest are fsync’d as the run’s checkpoints are', () => {
  it.each([
    [undefined, true],
    [true, true],
    [false, false],
  ])('run durable=%s → branch results durable=%s', async (durable, expected) => {
    opened.length = 0;
    const registry = createDefaultRegistry().register('ok', async () => ({ status: 'success' }));
    const runDir = path.join(tempDir(), 'run');
    const run = startPipeline({
      source: PIPELINE,
      runDir,
      registry,
      ...(durable !== undefined ? { durable } : {}),
    });
    expect((await run.result).status).toBe('completed');
    // One record per finished branch, each appended to the parallel node's results file.
    const branchWrites = opened.filter((w) => w.file.endsWith(`${path.sep}branch-results.jsonl`));
    expect(branchWrites).toHaveLength(2);
    for (const write of branchWrites) expect(write.durable ?? true).toBe(expected);
    // The manifest too: a run that does not fsync its checkpoints does not fsync its manifest either.
    const manifest = opened.filter((w) => w.file.endsWith(`${path.sep}manifest.json`));
    expect(manifest).toHaveLength(1);
    expect(manifest[0]?.durable ?? true).toBe(expected);
  });
});
