/**
 * The one observable stream of a run (docs/semantics.md). Every layer that shows or stores a run
 * (JSONL writer, --json, TUI, HTTP SSE) consumes exactly this shape.
 */
export interface PipelineEvent {
  /** Dotted kind: `pipeline.start`, `node.complete`, `parallel.branch.start`, `agent.*`, ... */
  kind: string;
  node_id?: string;
  data: Record<string, unknown>;
  /** ISO-8601 time the event happened. */
  timestamp: string;
}

export type EmitEvent = (kind: string, data?: Record<string, unknown>, nodeId?: string) => void;
