import { createHash } from 'node:crypto';

/**
 * Trace and span ids derived from a run's id, so that a resume or a fork can link to the trace of the
 * run it continues without that trace's ids being stored anywhere: the first execution of run R is
 * always trace `traceIdOf(R)` with root span `spanIdOf(R)`.
 */
export interface RootIds {
  traceId: string;
  spanId: string;
}

const hex = (text: string, length: number): string =>
  createHash('sha256').update(text).digest('hex').slice(0, length);

/** `execution` tells a run's later executions (its resumes) apart from its first; none: the first. */
export function rootIdsOf(runId: string, execution?: string): RootIds {
  const key = execution === undefined ? `attractor-run:${runId}` : `attractor-run:${runId}:${execution}`;
  return { traceId: hex(`${key}:trace`, 32), spanId: hex(`${key}:span`, 16) };
}

/** The W3C `traceparent` header value of a sampled span. */
export function traceparentOf(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}
