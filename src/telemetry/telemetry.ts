import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-node';
import { PinnedIdGenerator } from './pinned-id-generator.js';
import { RunTracer } from './run-tracer.js';
import type { TelemetrySettings } from './telemetry-settings.js';

/** A process's trace export: one per CLI command, server or worker; each run gets a `RunTracer` from it. */
export interface Telemetry {
  traceRun(): RunTracer;
  /** Sends what is queued now (an embedder between runs; the benchmark). */
  flush(): Promise<void>;
  /** Sends what is queued and stops; bounded, so an unreachable collector never holds the process. */
  shutdown(): Promise<void>;
}

export interface TelemetryOptions extends TelemetrySettings {
  /** Told once, when exporting first fails (then never again: a missing collector is not news each second). */
  onExportError: (message: string) => void;
  /** Overrides the OTLP/HTTP exporter to `url`. */
  exporter?: SpanExporter;
}

/** How long `shutdown` waits for the last batch. */
const SHUTDOWN_LIMIT_MS = 3_000;

/**
 * The OpenTelemetry SDK set up for Attractor's runs: a batching processor with a bounded queue (spans
 * beyond it are dropped, never waited for), the OTLP/HTTP exporter, and root span ids a later
 * execution can link to. Nothing is registered globally: an app embedding the engine keeps its own
 * global tracer provider.
 */
export function createTelemetry(options: TelemetryOptions): Telemetry {
  const ids = new PinnedIdGenerator();
  const exporter = reportingOnce(
    options.exporter ??
      new OTLPTraceExporter({ url: options.url, headers: options.headers, timeoutMillis: 5_000 }),
    options.onExportError,
  );
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    idGenerator: ids,
    spanProcessors: [
      new BatchSpanProcessor(exporter, {
        maxQueueSize: 4096,
        maxExportBatchSize: 512,
        scheduledDelayMillis: 1_000,
        exportTimeoutMillis: 5_000,
      }),
    ],
  });
  const tracer = provider.getTracer('attractor');
  return {
    traceRun: () => new RunTracer({ tracer, ids, captureContent: options.captureContent }),
    flush: () => provider.forceFlush(),
    shutdown: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, SHUTDOWN_LIMIT_MS);
        timer.unref();
        provider.shutdown().then(
          () => {
            clearTimeout(timer);
            resolve();
          },
          () => resolve(),
        );
      }),
  };
}

/** The exporter, telling the first failure and keeping quiet about the rest. */
function reportingOnce(exporter: SpanExporter, report: (message: string) => void): SpanExporter {
  let told = false;
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
      exporter.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS && !told) {
          told = true;
          report(
            `traces could not be exported (${result.error?.message ?? 'the collector refused them'}); the run goes on, further export errors are not shown.`,
          );
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    ...(exporter.forceFlush ? { forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve() } : {}),
  };
}
