import { definedFields } from '../shared/defined-fields.js';
import type { RunViewJson } from '../shared/run-view-json.js';
import { listedStatus } from './listed-status.js';
import type { RunRecord } from './run-record.js';
import type { RunSummary } from './run-summary.js';

/** What the view of a run reads besides its record. */
export interface RunViewFacts {
  eventCount: number;
  pendingQuestions: number;
  summary: RunSummary;
}

/** The public JSON of one run (`GET /pipelines/{id}`, list items). */
export function runView(record: RunRecord, facts: RunViewFacts): RunViewJson {
  const ended = record.status === 'completed' || record.status === 'failed' || record.status === 'cancelled';
  const { summary } = facts;
  const outcome: RunViewJson['outcome'] = record.status === 'completed' ? 'success' : 'fail';
  return {
    id: record.id,
    name: record.name,
    goal: record.goal,
    status: listedStatus(record.status, facts.pendingQuestions),
    event_count: facts.eventCount,
    created_at: record.created_at,
    updated_at: record.updated_at,
    dry_run: record.options.dry_run,
    ...(record.options.scenario !== undefined ? { scenario: true } : {}),
    ...(summary.current_node ? { current_node: summary.current_node } : {}),
    ...(summary.started_at ? { started_at: summary.started_at } : {}),
    ...(summary.ended_at ? { ended_at: summary.ended_at } : {}),
    ...definedFields({ forked_from: summary.forked_from }),
    checkpointed: summary.checkpointed === true,
    cost_usd: summary.cost_usd,
    tokens: { input: summary.input_tokens, output: summary.output_tokens },
    // Where `attractor attach` follows the run and answers its gates (the answer channel).
    ...(record.run_dir ? { run_dir: record.run_dir } : {}),
    ...definedFields({ quality: record.quality }),
    ...(record.stopped_at ? { stopped_at: record.stopped_at } : {}),
    ...(ended
      ? {
          outcome,
          notes:
            record.failure?.reason ??
            (record.status === 'completed' ? `reached ${record.stopped_at ?? 'exit'}` : ''),
        }
      : {}),
    ...definedFields({ failure: record.failure }),
    ...actorsOf(record),
  };
}

/** Who did what to the run, as its record keeps them. */
function actorsOf(
  record: RunRecord,
): Pick<RunViewJson, 'started_by' | 'forked_by' | 'resumed_by' | 'cancelled_by'> {
  const { started_by, forked_by, resumed_by, cancelled_by } = record;
  return {
    ...definedFields({ started_by, forked_by, resumed_by, cancelled_by }),
  };
}
