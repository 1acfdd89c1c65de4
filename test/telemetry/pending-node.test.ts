import { describe, expect, it } from 'vitest';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';
import { recordingTracer } from '../helpers/recording-tracer.js';
import { runDot } from '../helpers/run-helpers.js';

const FAN_OUT = `digraph fan {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  fan [shape=component]
  a [prompt="A"]
  b [prompt="B"]
  join [shape=tripleoctagon]
  start -> fan
  fan -> a
  fan -> b
  a -> join
  b -> join
  join -> exit
}`;

const CHAIN = `digraph chain {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  work [shape=diamond]
  start -> work -> exit
}`;

/** The run's events before `work` completes, and the rest. */
function aroundWork(events: PipelineEvent[]): PipelineEvent[][] {
  const at = events.findIndex((e) => e.kind === 'node.complete' && e.node_id === 'work');
  expect(at).toBeGreaterThan(0);
  return [events.slice(0, at), events.slice(at)];
}

describe("a node's span id, chosen before its span is made", () => {
  it("a parallel branch's nodes are children of the parallel node's span, made after theirs", async () => {
    const run = await runDot(FAN_OUT);
    expect(run.result.status).toBe('completed');
    const { tracer, started, span } = recordingTracer();
    for (const event of run.events) tracer.record(event);
    const fan = span('node fan');
    for (const branch of ['invoke_agent a', 'invoke_agent b']) {
      expect(span(branch).parentSpanContext?.spanId).toBe(fan.spanContext().spanId);
      expect(span(branch).spanContext().traceId).toBe(fan.spanContext().traceId);
      expect(started.indexOf(branch)).toBeLessThan(started.indexOf('node fan'));
    }
  });

  it('a command the node starts is given the traceparent of the span the node gets', async () => {
    const run = await runDot(CHAIN);
    const { tracer, span } = recordingTracer();
    const [during, after] = aroundWork(run.events);
    for (const event of during ?? []) tracer.record(event);
    const traceparent = tracer.traceparent('work');
    for (const event of after ?? []) tracer.record(event);
    const { traceId, spanId } = span('node work').spanContext();
    expect(traceparent).toBe(`00-${traceId}-${spanId}-01`);
  });

  it("with a tracer whose ids are not Attractor's, the span opens when its context is first needed", async () => {
    const run = await runDot(CHAIN);
    const { tracer, started, span } = recordingTracer({ pinned: false });
    const [during, after] = aroundWork(run.events);
    for (const event of during ?? []) tracer.record(event);
    expect(started).not.toContain('node work');
    const traceparent = tracer.traceparent('work');
    expect(started).toContain('node work');
    for (const event of after ?? []) tracer.record(event);
    const work = span('node work');
    expect(traceparent).toBe(`00-${work.spanContext().traceId}-${work.spanContext().spanId}-01`);
    expect(work.attributes).toMatchObject({
      'attractor.node.outcome': 'success',
      'attractor.node.route': 'exit',
    });
  });
});
