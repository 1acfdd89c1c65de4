import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSimulatedBackend } from '../../src/actors/simulated/simulated-backend.js';
import { startPipeline } from '../../src/run/engine.js';
import { AttractorError } from '../../src/shared/errors.js';
import { tempDir } from '../helpers/run-helpers.js';

const DOT = `digraph g {
  start [shape=Mdiamond]
  a
  b
  exit [shape=Msquare]
  start -> a -> b -> exit
}`;

describe('engine: a failing event or checkpoint listener', () => {
  it('a checkpoint that cannot be written stops the run and rejects its result with a clear error', async () => {
    const run = startPipeline({
      backend: createSimulatedBackend(),
      source: DOT,
      runsRoot: tempDir(),
      durable: false,
    });
    // The first checkpoint is written after the start node's handler settles, which is asynchronous.
    mkdirSync(join(run.runDir, 'checkpoint.json'));
    const error = await run.result.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(AttractorError.isInstance(error)).toBe(true);
    expect((error as AttractorError).code).toBe('RUN_OUTPUT_FAILED');
    expect((error as Error).message).toContain('checkpoint');
  });

  it('an onEvent callback that throws stops the run instead of crashing the process', async () => {
    const seen: string[] = [];
    const run = startPipeline({
      backend: createSimulatedBackend(),
      source: DOT,
      runsRoot: tempDir(),
      durable: false,
      onEvent: (e) => {
        seen.push(`${e.kind}:${e.node_id ?? ''}`);
        if (e.kind === 'node.complete' && e.node_id === 'a') throw new Error('stdout closed');
      },
    });
    const error = await run.result.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as AttractorError).code).toBe('RUN_OUTPUT_FAILED');
    expect((error as Error).message).toContain('stdout closed');
    expect(seen).not.toContain('node.start:exit');
  });
});
