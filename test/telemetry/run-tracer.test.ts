import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulatedBackend } from '../../src/actors/simulated/simulated-backend.js';
import { parseDot } from '../../src/compiler/parse/index.js';
import { resumePipeline } from '../../src/run/engine.js';
import { forkRun } from '../../src/run/fork-run.js';
import { createTelemetry, type Telemetry } from '../../src/telemetry/telemetry.js';
import { rootIdsOf } from '../../src/telemetry/trace-ids.js';
import { runDot } from '../helpers/run-helpers.js';

const PIPELINE = `digraph linked {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  work [prompt="Work"]
  review [prompt="Review"]
  start -> work -> review -> exit
}`;

let telemetries: Telemetry[] = [];
afterEach(async () => {
  for (const telemetry of telemetries) await telemetry.shutdown();
  telemetries = [];
});

function tracing(): { telemetry: Telemetry; spans: () => Promise<ReadableSpan[]> } {
  const exported: ReadableSpan[] = [];
  // Kept here, not in the SDK's in-memory exporter: that one forgets its spans when shut down.
  const exporter: SpanExporter = {
    export: (spans, done) => {
      exported.push(...spans);
      done({ code: 0 });
    },
    shutdown: async () => {},
  };
  const telemetry = createTelemetry({
    url: 'http://127.0.0.1:9/v1/traces',
    headers: {},
    captureContent: false,
    serviceName: 'attractor-test',
    exporter,
    onExportError: (message) => {
      throw new Error(message);
    },
  });
  telemetries.push(telemetry);
  return {
    telemetry,
    spans: async () => {
      await telemetry.shutdown();
      return exported;
    },
  };
}

const rootOf = (spans: ReadableSpan[]): ReadableSpan => {
  const roots = spans.filter((s) => s.parentSpanContext === undefined);
  expect(roots).toHaveLength(1);
  return roots[0] as ReadableSpan;
};

describe('a run trace and the traces it continues', () => {
  it("a run's first trace has ids its run id names; a resume's links to it", async () => {
    const first = tracing();
    const failed = await runDot(PIPELINE, {
      telemetry: first.telemetry,
      scenarioJson: { nodes: { review: [{ outcome: 'fail', failure_reason: 'not yet' }] } },
    });
    expect(failed.result.status).toBe('failed');
    const firstRoot = rootOf(await first.spans());
    expect(firstRoot.spanContext()).toMatchObject(rootIdsOf(failed.result.runId));
    expect(firstRoot.status.code).toBe(2); // ERROR

    const second = tracing();
    const resumed = await resumePipeline({
      backend: createSimulatedBackend(),
      from: failed.runDir,
      durable: false,
      telemetry: second.telemetry,
    }).result;
    expect(resumed.status).toBe('completed');
    const spans = await second.spans();
    const root = rootOf(spans);
    expect(root.spanContext().traceId).not.toBe(firstRoot.spanContext().traceId);
    expect(root.attributes['attractor.run.execution']).toBe('resume');
    expect(root.links).toEqual([
      {
        context: expect.objectContaining({
          traceId: firstRoot.spanContext().traceId,
          spanId: firstRoot.spanContext().spanId,
        }),
        attributes: { 'attractor.link': 'resumed' },
      },
    ]);
    expect(spans.map((s) => s.name)).toContain('invoke_agent review');
    expect(spans.every((s) => s.spanContext().traceId === root.spanContext().traceId)).toBe(true);
  });

  it("a fork's trace links to the trace of the run it was forked from", async () => {
    const original = tracing();
    const done = await runDot(PIPELINE, { telemetry: original.telemetry });
    const originalRoot = rootOf(await original.spans());
    const forked = forkRun({
      from: done.runDir,
      node: 'review',
      graph: parseDot(PIPELINE).graph,
      source: PIPELINE,
    });
    const fork = tracing();
    await resumePipeline({
      backend: createSimulatedBackend(),
      from: forked.runDir,
      durable: false,
      telemetry: fork.telemetry,
    }).result;
    const root = rootOf(await fork.spans());
    expect(root.spanContext()).toMatchObject(rootIdsOf(forked.runId));
    expect(root.attributes['attractor.run.execution']).toBe('fork');
    const { traceId, spanId } = originalRoot.spanContext();
    expect(root.links[0]?.context).toMatchObject({ traceId, spanId });
    expect(root.links[0]?.attributes).toEqual({ 'attractor.link': 'forked' });
  });

  it('nodes are children of the run, each with its outcome and the edge it took', async () => {
    const { telemetry, spans } = tracing();
    await runDot(PIPELINE, { telemetry });
    const all = await spans();
    const root = rootOf(all);
    const work = all.find((s) => s.name === 'invoke_agent work');
    expect(work?.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    expect(work?.attributes).toMatchObject({
      'attractor.node.outcome': 'success',
      'attractor.node.route': 'review',
      'attractor.node.route_rule': expect.any(String),
    });
    expect(all.filter((s) => s.name.startsWith('node ')).map((s) => s.name)).toEqual(
      expect.arrayContaining(['node start', 'node exit']),
    );
  });
});
