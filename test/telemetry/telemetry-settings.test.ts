import { describe, expect, it } from 'vitest';
import { resolveTelemetrySettings } from '../../src/telemetry/telemetry-settings.js';

describe('whether a process exports traces, and where', () => {
  it.each([
    { why: 'nothing configured', flags: {}, env: {}, url: undefined },
    {
      why: '--otel alone: the OTLP default',
      flags: { otel: true },
      env: {},
      url: 'http://localhost:4318/v1/traces',
    },
    {
      why: 'the base endpoint gets the signal path',
      flags: {},
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' },
      url: 'http://collector:4318/v1/traces',
    },
    {
      why: 'the traces endpoint is used as it is, and wins',
      flags: {},
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b/x' },
      url: 'http://b/x',
    },
    {
      why: 'OTEL_SDK_DISABLED turns it off, --otel or not',
      flags: { otel: true },
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SDK_DISABLED: 'true' },
      url: undefined,
    },
    {
      why: 'OTEL_TRACES_EXPORTER=none turns it off',
      flags: {},
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_TRACES_EXPORTER: 'none' },
      url: undefined,
    },
  ])('$why', ({ flags, env, url }) => {
    expect(resolveTelemetrySettings(flags, env)?.url).toBe(url);
  });

  it('takes headers from both variables (percent-decoded) and content only when asked', () => {
    const settings = resolveTelemetrySettings(
      {},
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
        OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc,x-team=core',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=traces',
        OTEL_SERVICE_NAME: 'factory',
      },
    );
    expect(settings).toEqual({
      url: 'http://a:4318/v1/traces',
      headers: { authorization: 'Bearer abc', 'x-team': 'traces' },
      captureContent: false,
      serviceName: 'factory',
    });
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a',
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
    };
    expect(resolveTelemetrySettings({}, env)?.captureContent).toBe(true);
    expect(
      resolveTelemetrySettings({ otelContent: true }, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a' })
        ?.captureContent,
    ).toBe(true);
  });
});
