import type { z } from 'zod';
import { agentEventSchemas } from './agent-event-schemas.js';
import { handlerEventSchemas } from './handler-event-schemas.js';
import { lifecycleEventSchemas } from './lifecycle-event-schemas.js';
import { notificationEventSchemas } from './notification-event-schemas.js';

/**
 * Every event kind a run writes, and the schema of its `data`. This map is the event protocol: the
 * types of `emit`, `PipelineEvent` and the schema of an `events.jsonl` line all come from it, and a
 * test checks the events table of docs/guides/runs.md against it.
 */
export const eventDataSchemas = {
  ...lifecycleEventSchemas,
  ...handlerEventSchemas,
  ...agentEventSchemas,
  ...notificationEventSchemas,
} as const;

export type EventKind = keyof typeof eventDataSchemas;

/** The `data` of an event of kind `K` (a union of them when `K` is). */
export type EventData<K extends EventKind> = z.infer<(typeof eventDataSchemas)[K]>;

export const EVENT_KINDS = Object.keys(eventDataSchemas) as EventKind[];

export function isEventKind(kind: string): kind is EventKind {
  return Object.hasOwn(eventDataSchemas, kind);
}
