import type { EventData, EventKind } from './events/event-data-schemas.js';

export type { EventData, EventKind } from './events/event-data-schemas.js';

/** One event of kind `K`: what a run writes as a line of `events.jsonl`. */
export interface PipelineEventOf<K extends EventKind> {
  kind: K;
  node_id?: string;
  /** Exactly the kind's schema's output: a misspelt field is a type error, so narrow by `kind` first. */
  data: EventData<K>;
  /** ISO-8601 time the event happened. */
  timestamp: string;
}

/**
 * The one observable stream of a run (docs/semantics.md). Every layer that shows or stores a run
 * (JSONL writer, --json, TUI, HTTP SSE) consumes exactly this shape: a union told apart by `kind`, so
 * `if (event.kind === 'edge.selected') event.data.to` is a typed read. The kinds and their data are
 * in `shared/events/` (`eventDataSchemas`); `pipelineEventLineSchema` parses a line at run time.
 */
export type PipelineEvent = { [K in EventKind]: PipelineEventOf<K> }[EventKind];

/**
 * How the engine, handlers and backends report an event: a kind and its data, checked against the
 * kind's schema at compile time (a misspelt or missing field is a type error). The engine adds the
 * timestamp, durations and usage.
 */
export type EmitEvent = <K extends EventKind>(kind: K, data: EventData<K>, nodeId?: string) => void;

/** Narrows an event to one kind (or several): `if (isEvent(e, 'node.complete')) e.data.status`. */
export function isEvent<K extends EventKind>(
  event: PipelineEvent,
  ...kinds: readonly K[]
): event is Extract<PipelineEvent, { kind: K }> {
  return (kinds as readonly string[]).includes(event.kind);
}

/**
 * A listener for one kind of event, for `onEvent` or a loop over `run.events()`: the handler sees
 * only events of that kind, typed.
 *
 * @example
 * startPipeline({ dotFile, onEvent: onEventOf('edge.selected', (e) => console.log(e.data.from, '→', e.data.to)) });
 */
export function onEventOf<K extends EventKind>(
  kind: K,
  handler: (event: Extract<PipelineEvent, { kind: K }>) => void,
): (event: PipelineEvent) => void {
  return (event) => {
    if (isEvent(event, kind)) handler(event);
  };
}
