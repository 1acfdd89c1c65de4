import type pg from 'pg';
import type { PipelineEvent } from '../../shared/pipeline-event.js';

/**
 * The most of a notification's payload (PostgreSQL allows 8,000 bytes) given to the events themselves:
 * a bigger burst is announced by its sequence numbers only, and servers read it from the table.
 */
export const EVENTS_PAYLOAD_BYTES = 7_000;

/** What one run recorded during one turn of its executor's event loop. */
export interface RunRecords {
  events: readonly PipelineEvent[];
  stages: readonly (readonly [string, unknown])[];
  checkpoint: string | undefined;
}

/**
 * Write one run's turn (events, stage records, newest checkpoint) and announce its events on `channel`,
 * in one statement: one round trip per run per commit, however much the turn made. The announcement is
 * `<run id> <newest seq> <first seq> <events as a JSON array>`, the array left out when it is larger than
 * EVENTS_PAYLOAD_BYTES. The array is the stored rows' own text, so a server that streams it sends exactly
 * what a read of the table returns.
 */
export async function writeRunRecords(
  client: pg.PoolClient,
  runId: string,
  records: RunRecords,
  channel: string,
): Promise<void> {
  await client.query(
    `WITH ins AS (
       INSERT INTO attractor.events (run_id, seq, event)
       SELECT $1, base.last + t.ord, t.event
       FROM (SELECT coalesce(max(seq), 0) AS last FROM attractor.events WHERE run_id = $1) base,
            unnest($2::jsonb[]) WITH ORDINALITY AS t(event, ord)
       RETURNING seq, event
     ), stage_rows AS (
       INSERT INTO attractor.stages (run_id, stage, status)
       SELECT $1, s.stage, s.status FROM unnest($3::text[], $4::jsonb[]) AS s(stage, status)
       ON CONFLICT (run_id, stage) DO UPDATE SET status = EXCLUDED.status
     ), checkpoint_row AS (
       INSERT INTO attractor.checkpoints (run_id, checkpoint)
       SELECT $1, $5::jsonb WHERE $5::jsonb IS NOT NULL
       ON CONFLICT (run_id) DO UPDATE SET checkpoint = EXCLUDED.checkpoint, written_at = now()
     ), burst AS (
       SELECT min(seq) AS first, max(seq) AS last, jsonb_agg(event ORDER BY seq)::text AS events FROM ins
     )
     SELECT pg_notify($6, $1 || ' ' || last || ' ' || first
       || CASE WHEN octet_length(events) <= $7 THEN ' ' || events ELSE '' END)
     FROM burst WHERE last IS NOT NULL`,
    [
      runId,
      records.events.map((event) => JSON.stringify(event)),
      records.stages.map(([stage]) => stage),
      records.stages.map(([, status]) => JSON.stringify(status)),
      records.checkpoint ?? null,
      channel,
      EVENTS_PAYLOAD_BYTES,
    ],
  );
}

/** What a server reads from an events announcement; undefined for one it cannot read. */
export function parseEventsPayload(
  payload: string,
): { runId: string; last: number; first?: number; events?: PipelineEvent[] } | undefined {
  const match = /^(\S+) (\d+)(?: (\d+)(?: (.*))?)?$/s.exec(payload);
  if (!match?.[1] || !match[2]) return undefined;
  const runId = match[1];
  const last = Number(match[2]);
  if (!match[3] || match[4] === undefined) return { runId, last };
  try {
    const first = Number(match[3]);
    const events: unknown = JSON.parse(match[4]);
    // The announcement must be exactly `first`…`last`; otherwise the table is read instead.
    if (!Array.isArray(events) || events.length !== last - first + 1) return { runId, last };
    return { runId, last, first, events: events as PipelineEvent[] };
  } catch {
    return { runId, last };
  }
}
