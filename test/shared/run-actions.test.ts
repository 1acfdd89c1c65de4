import { describe, expect, it } from 'vitest';
import {
  allowedRunActions,
  type RunAction,
  type RunActionFacts,
  runActionRefusal,
} from '../../src/shared/run-actions.js';
import type { RunStatus } from '../../src/shared/run-view-json.js';

// Every status, with and without a checkpoint: what the server's routes, the web view's buttons and
// `attractor resume`/`fork` allow (decision 0400).
const TABLE: readonly [RunStatus, boolean, readonly RunAction[]][] = [
  ['queued', false, ['cancel']],
  ['running', false, ['cancel']],
  ['running', true, ['cancel', 'fork']],
  ['waiting', true, ['cancel', 'fork']],
  ['paused', true, ['cancel', 'resume', 'fork']],
  // Killed before its first checkpoint: the resume starts it over.
  ['interrupted', false, ['cancel', 'resume']],
  ['interrupted', true, ['cancel', 'resume', 'fork']],
  ['failed', false, []],
  ['failed', true, ['resume', 'fork']],
  // Cancelled on the server or in the CLI alike: it goes on where it was cancelled.
  ['cancelled', false, []],
  ['cancelled', true, ['resume', 'fork']],
  ['completed', true, ['fork']],
];

describe('the actions a run allows', () => {
  it.each(TABLE)('%s (checkpointed: %s) allows %j', (status, checkpointed, allowed) => {
    expect(allowedRunActions({ status, checkpointed })).toEqual(allowed);
  });

  const REASONS: readonly [RunAction, RunActionFacts, string, RegExp][] = [
    ['cancel', { status: 'completed', checkpointed: true }, 'RUN_FINISHED', /already ended \(completed\)/],
    ['resume', { status: 'running', checkpointed: true }, 'NOT_RESUMABLE', /only a stopped run resumes/],
    ['resume', { status: 'completed', checkpointed: true }, 'NOT_RESUMABLE', /nothing to resume\.$/],
    ['resume', { status: 'failed', checkpointed: false }, 'NOT_RESUMABLE', /before its first checkpoint/],
    ['fork', { status: 'queued', checkpointed: false }, 'RUN_NOT_STARTED', /no state to fork/],
  ];
  it.each(REASONS)('refuses %s for %j with %s, saying why', (action, facts, code, reason) => {
    const refusal = runActionRefusal(action, facts);
    expect(refusal?.code).toBe(code);
    expect(refusal?.reason).toMatch(reason);
  });
});
