/**
 * `attractor-pipelines/telemetry`: a run exported as an OpenTelemetry trace (docs/guides/tracing.md). Its own
 * entry point because the OpenTelemetry SDK takes most of a second to load: an app that does not trace
 * never loads it. Pass the result as `telemetry` to `runPipeline`/`startPipeline`/`resumePipeline`.
 *
 * @example
 * import { runPipeline } from 'attractor-pipelines';
 * import { createTelemetry, resolveTelemetrySettings } from 'attractor-pipelines/telemetry';
 * const settings = resolveTelemetrySettings({ otel: true }, process.env);
 * const telemetry = settings && createTelemetry({ ...settings, onExportError: console.warn });
 * await runPipeline({ source, ...(telemetry ? { telemetry } : {}) });
 * await telemetry?.shutdown();
 */

export { RunTracer, type RunTracerOptions } from './telemetry/run-tracer.js';
export { createTelemetry, type Telemetry, type TelemetryOptions } from './telemetry/telemetry.js';
export {
  resolveTelemetrySettings,
  type TelemetryFlags,
  type TelemetrySettings,
} from './telemetry/telemetry-settings.js';
