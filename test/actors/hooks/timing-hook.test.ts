import { describe, expect, it } from 'vitest';
import { createTimingHook, type NodeTiming } from '../../../src/actors/hooks/timing-hook.js';
import { PipelineContext } from '../../../src/actors/pipeline-context.js';
import { runWithHooks } from '../../../src/actors/run-with-hooks.js';
import { makeNode } from '../helpers/graph-builders.js';

describe('createTimingHook', () => {
  it('times each invocation separately, even when they overlap, and logs one entry per node', async () => {
    let clock = 0;
    const timings: NodeTiming[] = [];
    const hook = createTimingHook({ now: () => clock, onTiming: (t) => timings.push(t) });
    const a = new PipelineContext({}, 'a');
    const b = new PipelineContext({}, 'b');
    let releaseA: () => void = () => {};
    const runA = runWithHooks(
      [hook],
      makeNode('a'),
      a,
      () =>
        new Promise((resolve) => {
          releaseA = () => resolve({ status: 'success' });
        }),
    );
    clock = 10;
    await runWithHooks([hook], makeNode('b'), b, async () => {
      clock = 15;
      return { status: 'fail', failure_reason: 'x' };
    });
    clock = 40;
    releaseA();
    await runA;
    expect(timings).toEqual([
      { node: 'b', status: 'fail', durationMs: 5 },
      { node: 'a', status: 'success', durationMs: 40 },
    ]);
    expect(a.getLogs()).toEqual([
      {
        node: 'a',
        time: expect.any(String),
        message: 'a took 40 ms (success)',
        kind: 'timing',
        duration_ms: 40,
        status: 'success',
      },
    ]);
    expect(b.getLogs()[0]?.message).toBe('b took 5 ms (fail)');
  });
});
