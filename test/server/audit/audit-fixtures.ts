import type { AuditEvent } from '../../../src/server/audit/audit-entry.js';

/** A few requests as the routes report them: ok and refused, with and without a run. */
export const SAMPLE_EVENTS: readonly AuditEvent[] = [
  { who: 'anonymous', action: 'start', run_id: 'r1', outcome: 'ok', status: 201 },
  { who: 'ada', action: 'answer', run_id: 'r1', question_id: 'q1', outcome: 'ok', status: 200 },
  {
    who: 'ci',
    action: 'cancel',
    run_id: 'r2',
    outcome: 'refused',
    status: 404,
    error_code: 'RUN_NOT_FOUND',
  },
  { who: 'ada', action: 'fork', run_id: 'r1', node: 'plan', new_run_id: 'r3', outcome: 'ok', status: 201 },
  { who: 'token', action: 'token-create', subject: 'ci', outcome: 'ok', status: 201 },
];
