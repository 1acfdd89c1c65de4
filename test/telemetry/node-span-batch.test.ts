import { hrTimeToMilliseconds } from '@opentelemetry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';
import { recordingTracer } from '../helpers/recording-tracer.js';
import { eventOf, runDot } from '../helpers/run-helpers.js';

/** A chain of `n` routing nodes: every visit ends with the edge it took, except exit's. */
function chain(n: number): string {
  const nodes = Array.from({ length: n }, (_, i) => `  n${i} [shape=diamond]`);
  const path = ['start', ...Array.from({ length: n }, (_, i) => `n${i}`), 'exit'].join(' -> ');
  return [
    'digraph chain {',
    '  start [shape=Mdiamond]',
    '  exit [shape=Msquare]',
    ...nodes,
    `  ${path}`,
    '}',
  ].join('\n');
}

/** The run's events before the first that `at` picks, and the rest. */
function splitAt(events: PipelineEvent[], at: (event: PipelineEvent) => boolean): PipelineEvent[][] {
  const index = events.findIndex(at);
  expect(index).toBeGreaterThan(0);
  return [events.slice(0, index), events.slice(index)];
}
const finalize = (event: PipelineEvent): boolean => event.kind === 'pipeline.finalize';

const nodeSpans = (names: string[]): string[] => names.filter((name) => name.startsWith('node '));

afterEach(() => {
  vi.useRealTimers();
});

describe('node spans are made after their visits, together', () => {
  it("none is made while the run's first visits go on; at the run's end, every visit has its own", async () => {
    const run = await runDot(chain(5));
    const { tracer, started, span } = recordingTracer();
    const [before, end] = splitAt(run.events, finalize);
    for (const event of before ?? []) tracer.record(event);
    expect(started).toEqual(['invoke_workflow chain']);
    for (const event of end ?? []) tracer.record(event);
    expect(nodeSpans(started)).toEqual(
      ['start', 'n0', 'n1', 'n2', 'n3', 'n4', 'exit'].map((id) => `node ${id}`),
    );

    // Made late, each says what its visit did, when it did it.
    const n2 = span('node n2');
    const visit = {
      start: eventOf(run.events, 'node.start', 'n2'),
      complete: eventOf(run.events, 'node.complete', 'n2'),
    };
    expect(hrTimeToMilliseconds(n2.startTime)).toBe(Date.parse(visit.start?.timestamp ?? ''));
    expect(hrTimeToMilliseconds(n2.endTime)).toBe(Date.parse(visit.complete?.timestamp ?? ''));
    expect(n2.attributes).toMatchObject({
      'attractor.node.id': 'n2',
      'attractor.node.step': visit.start?.data.step,
      'attractor.node.outcome': 'success',
      'attractor.node.route': 'n3',
    });
    expect(n2.parentSpanContext?.spanId).toBe(span('invoke_workflow chain').spanContext().spanId);
  });

  it('64 ended visits are made at once, without waiting for the run to end', async () => {
    const run = await runDot(chain(70), { maxSteps: 100 });
    const { tracer, started } = recordingTracer();
    const [before] = splitAt(run.events, finalize);
    for (const event of before ?? []) tracer.record(event);
    // start and n0…n62 ended: the 64th ended visit made them all; n63…n69 wait for the next batch.
    expect(nodeSpans(started)).toHaveLength(64);
    expect(started.at(-1)).toBe('node n62');
  });

  it('an ended visit waits at most a second for its span while the run goes on', async () => {
    const run = await runDot(chain(5));
    vi.useFakeTimers();
    const { tracer, started } = recordingTracer();
    const [before] = splitAt(run.events, (e) => e.kind === 'edge.selected' && e.data.from === 'n1');
    for (const event of before ?? []) tracer.record(event);
    expect(nodeSpans(started)).toEqual([]);
    vi.advanceTimersByTime(999);
    expect(nodeSpans(started)).toEqual([]);
    vi.advanceTimersByTime(1);
    // n1 has completed but not yet taken its edge: its visit has not ended.
    expect(nodeSpans(started)).toEqual(['node start', 'node n0']);
  });
});
