import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { readEvents, runDot } from '../helpers/run-helpers.js';

/** What each lifecycle event carries beyond its kind. */
describe('event payloads', () => {
  const dot = `digraph payloads {
    start [shape=Mdiamond]
    fan [shape=component]
    a [type="slow", delay_ms="60"]
    b [type="slow", delay_ms="5"]
    join [shape=tripleoctagon]
    keep [type="keep"]
    exit [shape=Msquare]
    start -> fan
    fan -> a -> join
    fan -> b -> join
    join -> keep -> exit
  }`;
  const registry = () =>
    createDefaultRegistry()
      .register('slow', async ({ node }) => {
        await new Promise((resolve) => setTimeout(resolve, Number(node.extra['delay_ms'])));
        return { status: 'success' };
      })
      .register('keep', async ({ services }) => {
        services.artifacts?.store('report', 'first');
        services.artifacts?.store('log', 'second');
        return { status: 'success' };
      });

  it('checkpoint.saved names its node; the run-level events carry durations and the artifact count', async () => {
    const run = await runDot(dot, { registry: registry() });
    expect(run.result.status).toBe('completed');

    const saved = run.events.filter((e) => e.kind === 'checkpoint.saved');
    expect(saved.length).toBeGreaterThan(3);
    for (const e of saved) expect(e.node_id).toBe(e.data['current_node']);
    expect(saved.map((e) => e.node_id)).toContain('keep');

    const complete = run.events.find((e) => e.kind === 'pipeline.complete');
    expect(complete?.data['artifact_count']).toBe(2);
    expect(complete?.data['duration_ms']).toBeGreaterThanOrEqual(60);
    // The file holds the same payloads as the callback.
    const fromFile = readEvents(run.runDir).find((e) => e.kind === 'pipeline.complete');
    expect(fromFile?.data).toEqual(complete?.data);
  });

  it('parallel branch events carry the branch index; completions carry durations and success', async () => {
    const run = await runDot(dot, { registry: registry() });
    const starts = run.events.filter((e) => e.kind === 'parallel.branch.start');
    expect(Object.fromEntries(starts.map((e) => [e.data['branch'], e.data['index']]))).toEqual({
      a: 0,
      b: 1,
    });

    const done = run.events.filter((e) => e.kind === 'parallel.branch.complete');
    const byBranch = Object.fromEntries(done.map((e) => [String(e.data['branch']), e.data]));
    expect(byBranch['a']).toMatchObject({ index: 0, status: 'success', success: true });
    expect(byBranch['b']).toMatchObject({ index: 1, status: 'success', success: true });
    expect(byBranch['a']?.['duration_ms']).toBeGreaterThanOrEqual(55);
    expect(byBranch['b']?.['duration_ms']).toBeLessThan(Number(byBranch['a']?.['duration_ms']));

    const parallel = run.events.find((e) => e.kind === 'parallel.complete');
    expect(parallel?.data).toMatchObject({ succeeded: 2, failed: 0, total: 2 });
    expect(parallel?.data['duration_ms']).toBeGreaterThanOrEqual(Number(byBranch['a']?.['duration_ms']));
  });

  it('pipeline.error carries the duration of the failed run', async () => {
    const run = await runDot(
      `digraph f { start [shape=Mdiamond]; bad [type="boom"]; exit [shape=Msquare]; start -> bad -> exit }`,
      {
        registry: createDefaultRegistry().register('boom', async () => ({
          status: 'fail',
          failure_reason: 'no',
        })),
      },
    );
    expect(run.result.status).toBe('failed');
    const error = run.events.find((e) => e.kind === 'pipeline.error');
    expect(typeof error?.data['duration_ms']).toBe('number');
  });
});
