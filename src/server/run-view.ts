import type { RunRecord } from './run-record.js';

/** The public JSON of one run (`GET /pipelines/{id}`, list items). */
export function runView(record: RunRecord, eventCount: number): Record<string, unknown> {
  const ended = record.status === 'completed' || record.status === 'failed' || record.status === 'cancelled';
  return {
    id: record.id,
    name: record.name,
    goal: record.goal,
    status: record.status,
    event_count: eventCount,
    created_at: record.created_at,
    updated_at: record.updated_at,
    dry_run: record.options.dry_run,
    // Where `attractor attach` follows the run and answers its gates (the answer channel).
    ...(record.run_dir ? { run_dir: record.run_dir } : {}),
    ...(record.quality ? { quality: record.quality } : {}),
    ...(record.stopped_at ? { stopped_at: record.stopped_at } : {}),
    ...(ended
      ? {
          outcome: record.status === 'completed' ? 'success' : 'fail',
          notes:
            record.failure?.reason ??
            (record.status === 'completed' ? `reached ${record.stopped_at ?? 'exit'}` : ''),
        }
      : {}),
    ...(record.failure ? { failure: record.failure } : {}),
  };
}
