import type pg from 'pg';
import type { PipelineEvent } from '../../shared/pipeline-event.js';
import { RunRecordsBatch } from './write-run-records.js';

/**
 * Append one event to run `runId`'s stream from a process that does not execute it (a notification
 * given up, possibly after the run ended), announced on `channel` as the executor's events are. The
 * run's row is locked first, as its owner's every batch does (`WriteQueue`): the two number their
 * events one after the other, never the same.
 */
export async function appendRunEvent(
  pool: pg.Pool,
  channel: string,
  runId: string,
  event: PipelineEvent,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT 1 FROM attractor.runs WHERE id = $1 FOR NO KEY UPDATE', [runId]);
    const batch = new RunRecordsBatch(channel);
    batch.add(runId, { events: [event], stages: [], checkpoint: undefined });
    await batch.write(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
