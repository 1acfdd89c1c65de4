import type pg from 'pg';
import type { PipelineEvent } from '../../shared/pipeline-event.js';
import type { Gathered } from './write-queue.js';

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
 * Every run's turn in one commit (events, stage records, newest checkpoint), written with their
 * announcements on `channel` in one statement: one round trip per commit however many runs it holds.
 * A run's announcement is `<run id> <newest seq> <first seq> <events as a JSON array>`, the array left
 * out when it is larger than EVENTS_PAYLOAD_BYTES. The array is the stored rows' own text, so a server
 * that streams it sends exactly what a read of the table returns.
 */
export class RunRecordsBatch implements Gathered {
  readonly #channel: string;
  readonly #events: [string, PipelineEvent][] = [];
  readonly #stages = new Map<string, [string, string, unknown]>();
  readonly #checkpoints = new Map<string, string>();

  constructor(channel: string) {
    this.#channel = channel;
  }

  add(runId: string, records: RunRecords): void {
    for (const event of records.events) this.#events.push([runId, event]);
    for (const [stage, status] of records.stages)
      this.#stages.set(JSON.stringify([runId, stage]), [runId, stage, status]);
    if (records.checkpoint !== undefined) this.#checkpoints.set(runId, records.checkpoint);
  }

  async write(client: pg.PoolClient): Promise<void> {
    const stages = [...this.#stages.values()];
    await client.query(
      `WITH input AS (
         SELECT t.run_id, t.event, t.ord
         FROM unnest($1::text[], $2::jsonb[]) WITH ORDINALITY AS t(run_id, event, ord)
       ), base AS (
         SELECT r.run_id, (SELECT coalesce(max(e.seq), 0) FROM attractor.events e WHERE e.run_id = r.run_id) AS last
         FROM (SELECT DISTINCT run_id FROM input) r
       ), ins AS (
         INSERT INTO attractor.events (run_id, seq, event)
         SELECT i.run_id, b.last + row_number() OVER (PARTITION BY i.run_id ORDER BY i.ord), i.event
         FROM input i JOIN base b ON b.run_id = i.run_id
         RETURNING run_id, seq, event
       ), stage_rows AS (
         INSERT INTO attractor.stages (run_id, stage, status)
         SELECT * FROM unnest($3::text[], $4::text[], $5::jsonb[])
         ON CONFLICT (run_id, stage) DO UPDATE SET status = EXCLUDED.status
       ), checkpoint_rows AS (
         INSERT INTO attractor.checkpoints (run_id, checkpoint)
         SELECT * FROM unnest($6::text[], $7::jsonb[])
         ON CONFLICT (run_id) DO UPDATE SET checkpoint = EXCLUDED.checkpoint, written_at = now()
       ), bursts AS (
         SELECT run_id, min(seq) AS first, max(seq) AS last, jsonb_agg(event ORDER BY seq)::text AS events
         FROM ins GROUP BY run_id
       )
       SELECT pg_notify($8, run_id || ' ' || last || ' ' || first
         || CASE WHEN octet_length(events) <= $9 THEN ' ' || events ELSE '' END)
       FROM bursts`,
      [
        this.#events.map(([runId]) => runId),
        this.#events.map(([, event]) => JSON.stringify(event)),
        stages.map(([runId]) => runId),
        stages.map(([, stage]) => stage),
        stages.map(([, , status]) => JSON.stringify(status)),
        [...this.#checkpoints.keys()],
        [...this.#checkpoints.values()],
        this.#channel,
        EVENTS_PAYLOAD_BYTES,
      ],
    );
  }
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
