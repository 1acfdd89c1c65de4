import type { PipelineEdge } from '../../ir.js';

/** `a -> b`, the way edges are named in lint messages. */
export function describeEdge(edge: PipelineEdge): string {
  return `${edge.source} -> ${edge.target}`;
}

/** The `edge` field of a diagnostic. */
export function edgeRef(edge: PipelineEdge): { source: string; target: string } {
  return { source: edge.source, target: edge.target };
}

/** Ends a message built around another module's text with exactly one full stop. */
export function asSentence(text: string): string {
  const trimmed = text.trim().replace(/[.\s]+$/, '');
  return `${trimmed}.`;
}
