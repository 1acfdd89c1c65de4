import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

// Records how each finished branch is written, passing every write through to the real implementation.
const writes = vi.hoisted(() => [] as Array<{ file: string; durable: boolean | undefined }>);
vi.mock('../../src/shared/atomic-write.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/shared/atomic-write.js')>();
  return {
    ...real,
    writeFileAtomic: (file: string, data: string, options?: { durable?: boolean }) => {
      writes.push({ file, durable: options?.durable });
      return real.writeFileAtomic(file, data, options);
    },
  };
});

const { createDefaultRegistry } = await import('../../src/actors/registry.js');
const { startPipeline } = await import('../../src/machines/engine.js');
const { tempDir } = await import('./run-helpers.js');

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
    writes.length = 0;
    const registry = createDefaultRegistry().register('ok', async () => ({ status: 'success' }));
    const runDir = path.join(tempDir(), 'run');
    const run = startPipeline({
      source: PIPELINE,
      runDir,
      registry,
      ...(durable !== undefined ? { durable } : {}),
    });
    expect((await run.result).status).toBe('completed');
    const branchWrites = writes.filter((w) => w.file.includes(`${path.sep}branch-results${path.sep}`));
    expect(branchWrites).toHaveLength(2);
    for (const write of branchWrites) expect(write.durable ?? true).toBe(expected);
    // The manifest too: a run that does not fsync its checkpoints does not fsync its manifest either.
    const manifest = writes.filter((w) => w.file.endsWith(`${path.sep}manifest.json`));
    expect(manifest).toHaveLength(1);
    expect(manifest[0]?.durable ?? true).toBe(expected);
  });
});
