import type { RunStatus } from './run-view-json.js';

/** What can be done to a run from outside it: the web view's buttons, the server's routes, the CLI. */
export const RUN_ACTIONS = ['cancel', 'resume', 'fork'] as const;
export type RunAction = (typeof RUN_ACTIONS)[number];

/** What the rule reads of a run: where it stands, and whether it has a checkpoint to go on from. */
export interface RunActionFacts {
  status: RunStatus;
  /** The run wrote a checkpoint (a resumed or forked run started from one). */
  checkpointed: boolean;
}

/** Why an action is refused: a stable code for the HTTP answer and a sentence for a person. */
export interface RunActionRefusal {
  code: 'RUN_FINISHED' | 'NOT_RESUMABLE' | 'RUN_NOT_STARTED';
  reason: string;
}

const ENDED: ReadonlySet<RunStatus> = new Set(['completed', 'failed', 'cancelled']);
const MOVING: ReadonlySet<RunStatus> = new Set(['queued', 'running', 'waiting']);

function cancelRefusal({ status }: RunActionFacts): RunActionRefusal | undefined {
  if (!ENDED.has(status)) return undefined;
  return { code: 'RUN_FINISHED', reason: `the run already ended (${status}).` };
}

/**
 * A stopped run goes on from its checkpoint: paused and interrupted ones always (one killed before its
 * first checkpoint starts over); failed ones at the node that failed; cancelled ones where they were
 * cancelled, as `attractor resume` always did for a run directory.
 */
function resumeRefusal({ status, checkpointed }: RunActionFacts): RunActionRefusal | undefined {
  if (status === 'paused' || status === 'interrupted') return undefined;
  if ((status === 'failed' || status === 'cancelled') && checkpointed) return undefined;
  const reason = MOVING.has(status)
    ? `the run is ${status}; only a stopped run resumes.`
    : status === 'completed'
      ? 'the run completed; there is nothing to resume.'
      : `the run ${status} before its first checkpoint; there is nothing to resume from.`;
  return { code: 'NOT_RESUMABLE', reason };
}

/** A fork starts from a checkpoint the run wrote as it entered a node, whatever it did since. */
function forkRefusal({ status, checkpointed }: RunActionFacts): RunActionRefusal | undefined {
  if (checkpointed) return undefined;
  return {
    code: 'RUN_NOT_STARTED',
    reason: `the run is ${status} and has not written a checkpoint yet, so there is no state to fork.`,
  };
}

const RULES: Readonly<Record<RunAction, (facts: RunActionFacts) => RunActionRefusal | undefined>> = {
  cancel: cancelRefusal,
  resume: resumeRefusal,
  fork: forkRefusal,
};

/**
 * Why `action` is refused for a run in this state, or undefined when it is allowed. The one rule the
 * server's runs, the web view and `attractor resume`/`fork` all ask (decision 0400).
 */
export function runActionRefusal(action: RunAction, facts: RunActionFacts): RunActionRefusal | undefined {
  return RULES[action](facts);
}

/** The actions a run in this state allows. */
export function allowedRunActions(facts: RunActionFacts): RunAction[] {
  return RUN_ACTIONS.filter((action) => RULES[action](facts) === undefined);
}
