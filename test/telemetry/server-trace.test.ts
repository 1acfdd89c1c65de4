import { afterEach, describe, expect, it } from 'vitest';
import { createTelemetry } from '../../src/telemetry/telemetry.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { closeServers, LINEAR_PIPELINE, testServer, waitFor } from '../server/server-fixtures.js';

afterEach(closeServers);

describe('a server with tracing on', () => {
  it('exports each run it executes as a trace, over OTLP/HTTP', async () => {
    const otlp = await startOtlpReceiver();
    try {
      const telemetry = createTelemetry({
        url: `${otlp.origin}/v1/traces`,
        headers: {},
        captureContent: false,
        serviceName: 'attractor-serve',
        onExportError: (message) => {
          throw new Error(message);
        },
      });
      const server = await testServer({}, { telemetry });
      const { body } = await server.json('POST', '/pipelines', {
        dot_source: LINEAR_PIPELINE,
        dry_run: true,
      });
      await waitFor(async () => {
        const run = (await server.json('GET', `/pipelines/${body.id}`)).body;
        return run.status === 'completed' ? run : undefined;
      }, 'the run');
      // Draining the server shuts its telemetry down: the last batch goes out.
      await server.drain();
      const root = otlp.spans.find((s) => s.attributes['gen_ai.operation.name'] === 'invoke_workflow');
      expect(root?.attributes['attractor.run.id']).toBe(body.id);
      expect(root?.resource['service.name']).toBe('attractor-serve');
      const nodes = otlp.spans.filter((s) => s.parentSpanId === root?.spanId);
      expect(nodes.length).toBeGreaterThanOrEqual(3);
    } finally {
      await otlp.close();
    }
  });
});
