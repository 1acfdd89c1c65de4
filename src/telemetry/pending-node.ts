import {
  type Attributes,
  type Context,
  type Span,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { PinnedIdGenerator } from './pinned-id-generator.js';

/**
 * A node visit whose span is not made yet: what it will say, gathered from its events. The SDK span is
 * made after the visit ended, with every attribute at once (`endNodeSpan`, batched by `NodeSpanBatch`):
 * a span kept open and amended by each event paid for the SDK's calls at every event, each meeting
 * caches the engine's own work of the step had just made cold.
 */
export interface PendingNode {
  /** Its node, inside which parallel branch or child pipeline. */
  key: string;
  nodeId: string;
  spanName: string;
  startTime: number;
  /** The span it is a child of (the run's, a parallel node's or a parent node's). */
  parent: Context;
  attributes: Attributes;
  /** Set once something inside the visit needed its context: the span is made with this id then. */
  spanId?: string;
  /**
   * The SDK span once made: when the visit's batch is made, or as soon as its context is needed if
   * the tracer's ids are not ours to pin (a tracer an embedder passed).
   */
  span?: Span;
  context?: Context;
  /** Its `node.complete` time: the span ends there once the edge it took is known. */
  completedAt?: number;
  /** The failure its span's status carries. */
  failure?: string;
}

/**
 * The context of a visit's span, made the first time a child span or a command it starts needs it:
 * the span's id is chosen now and kept for when the span is made. Most visits (routing nodes, a
 * handler that starts nothing) never need one.
 */
export function pendingContext(
  node: PendingNode,
  tracer: Tracer,
  ids: PinnedIdGenerator | undefined,
): Context {
  if (node.context !== undefined) return node.context;
  if (node.span !== undefined || ids === undefined) {
    node.span ??= startNodeSpan(node, tracer);
    node.context = trace.setSpan(node.parent, node.span);
    return node.context;
  }
  const spanId = ids.generateSpanId();
  const traceId = trace.getSpanContext(node.parent)?.traceId ?? ids.generateTraceId();
  node.spanId = spanId;
  node.context = trace.setSpan(
    node.parent,
    trace.wrapSpanContext({ traceId, spanId, traceFlags: TraceFlags.SAMPLED }),
  );
  return node.context;
}

/** The visit's span context, if it has one yet. */
export function pendingSpanContext(node: PendingNode): { traceId: string; spanId: string } | undefined {
  return node.context === undefined ? undefined : trace.getSpanContext(node.context);
}

/**
 * Makes the visit's span (with the id its children already name, if it has children) and ends it;
 * called once a visit.
 */
export function endNodeSpan(node: PendingNode, tracer: Tracer, ids: PinnedIdGenerator | undefined): void {
  const start = (): Span => startNodeSpan(node, tracer);
  const span =
    node.span?.setAttributes(node.attributes) ??
    (node.spanId === undefined || ids === undefined ? start() : ids.withSpanId(node.spanId, start));
  // A context asked for later (a branch event after its parallel node) names the span made here.
  node.span = span;
  if (node.failure !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: node.failure });
  span.end(node.completedAt);
}

function startNodeSpan(node: PendingNode, tracer: Tracer): Span {
  return tracer.startSpan(
    node.spanName,
    { kind: SpanKind.INTERNAL, startTime: node.startTime, attributes: node.attributes },
    node.parent,
  );
}
