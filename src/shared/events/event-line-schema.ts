import * as z from 'zod';
import { type EventKind, eventDataSchemas } from './event-data-schemas.js';

const lineOf = <K extends EventKind>(kind: K) =>
  z.strictObject({
    kind: z.literal(kind),
    node_id: z.string().optional(),
    data: eventDataSchemas[kind],
    /** ISO-8601 time the event happened. */
    timestamp: z.iso.datetime(),
  });

type LineSchemas = { [K in EventKind]: ReturnType<typeof lineOf<K>> };

const lines = Object.fromEntries(
  (Object.keys(eventDataSchemas) as EventKind[]).map((kind) => [kind, lineOf(kind)]),
) as LineSchemas;

/**
 * One line of a run's `events.jsonl` (and one `--json` line, one SSE `data:`): `{kind, node_id?, data,
 * timestamp}`, told apart by `kind`. Strict: an unknown kind or an unknown field fails, so a consumer
 * that parses with it learns of a new event instead of misreading it.
 *
 * @example
 * for (const line of readFileSync('run/events.jsonl', 'utf8').split('\n').filter(Boolean)) {
 *   const event = pipelineEventLineSchema.parse(JSON.parse(line));
 *   if (event.kind === 'node.complete') console.log(event.node_id, event.data.status);
 * }
 */
export const pipelineEventLineSchema = z.discriminatedUnion(
  'kind',
  Object.values(lines) as unknown as [LineSchemas[EventKind], ...LineSchemas[EventKind][]],
);
