/** Whether a process exports traces, and what they may carry: resolved once, from flags and the environment. */
export interface TelemetrySettings {
  /** The OTLP/HTTP traces URL. */
  url: string;
  /** Headers sent with every export (`OTEL_EXPORTER_OTLP_HEADERS`, `…_TRACES_HEADERS`). */
  headers: Record<string, string>;
  /** Prompts, responses, tool arguments and results as span attributes. */
  captureContent: boolean;
  /** `service.name` of the exported resource. */
  serviceName: string;
}

export interface TelemetryFlags {
  /** `--otel`: export even without an endpoint in the environment (to the OTLP default, localhost:4318). */
  otel?: boolean;
  /** `--otel-content`. */
  otelContent?: boolean;
}

const truthy = (value: string | undefined): boolean =>
  value !== undefined && /^(1|true|yes)$/i.test(value.trim());

/**
 * Tracing is on when the user configured it the standard way — `OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` set — or asked with `--otel`; `OTEL_SDK_DISABLED=true` and
 * `OTEL_TRACES_EXPORTER=none` turn it off as they do for any OpenTelemetry SDK. Content (prompts and
 * responses) goes into spans only when asked: `--otel-content` or
 * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`, the GenAI instrumentations' switch.
 * Returns undefined when tracing is off.
 */
export function resolveTelemetrySettings(
  flags: TelemetryFlags,
  env: Readonly<Record<string, string | undefined>>,
): TelemetrySettings | undefined {
  if (truthy(env['OTEL_SDK_DISABLED'])) return undefined;
  if (env['OTEL_TRACES_EXPORTER']?.trim() === 'none') return undefined;
  const endpoint = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] ?? env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  if (!flags.otel && !endpoint?.trim()) return undefined;
  return {
    url: tracesUrl(env),
    headers: {
      ...parseHeaders(env['OTEL_EXPORTER_OTLP_HEADERS']),
      ...parseHeaders(env['OTEL_EXPORTER_OTLP_TRACES_HEADERS']),
    },
    captureContent:
      flags.otelContent === true || truthy(env['OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT']),
    serviceName: env['OTEL_SERVICE_NAME']?.trim() || 'attractor',
  };
}

/** The OTLP specification's rule: the signal's own variable as it is, else the base one plus `/v1/traces`. */
function tracesUrl(env: Readonly<Record<string, string | undefined>>): string {
  const own = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']?.trim();
  if (own) return own;
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim() || 'http://localhost:4318';
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** `key=value,key2=value2`, values percent-encoded (the W3C Baggage form the OTLP exporters read). */
function parseHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    try {
      headers[name] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      headers[name] = pair.slice(at + 1).trim();
    }
  }
  return headers;
}
