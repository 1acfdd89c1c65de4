import {
  BasicTracerProvider,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { PinnedIdGenerator } from '../../src/telemetry/pinned-id-generator.js';
import { RunTracer } from '../../src/telemetry/run-tracer.js';

/** Spans as the SDK makes them: the names started so far (in order) and the spans ended. */
export interface RecordingTracer {
  tracer: RunTracer;
  started: string[];
  ended: ReadableSpan[];
  /** The one ended span of that name. */
  span(name: string): ReadableSpan;
}

/**
 * A `RunTracer` on a provider of the test's own, whose processor records when the SDK starts and ends
 * each span (no export). `pinned: false` gives it a tracer whose ids are not Attractor's to pin, as an
 * app passing its own tracer has.
 */
export function recordingTracer(options: { pinned?: boolean } = {}): RecordingTracer {
  const started: string[] = [];
  const ended: ReadableSpan[] = [];
  const recorder: SpanProcessor = {
    onStart: (span: Span) => void started.push(span.name),
    onEnd: (span: ReadableSpan) => void ended.push(span),
    forceFlush: async () => {},
    shutdown: async () => {},
  };
  const ids = new PinnedIdGenerator();
  const pinned = options.pinned ?? true;
  const provider = new BasicTracerProvider({
    spanProcessors: [recorder],
    ...(pinned ? { idGenerator: ids } : {}),
  });
  const tracer = new RunTracer({
    tracer: provider.getTracer('test'),
    captureContent: false,
    ...(pinned ? { ids } : {}),
  });
  const span = (name: string): ReadableSpan => {
    const found = ended.filter((s) => s.name === name);
    if (found.length !== 1) throw new Error(`${found.length} spans named ${name}`);
    return found[0] as ReadableSpan;
  };
  return { tracer, started, ended, span };
}
