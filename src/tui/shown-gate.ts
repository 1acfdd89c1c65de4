import type { Question } from '../actors/interviewers/interviewer.js';
import type { PendingGate } from './gate-source.js';
import type { RunState } from './run-state.js';

export interface ShownGate {
  question: Question | undefined;
  askedAt: number;
  timeoutMs: number | undefined;
}

/**
 * The gate the prompt shows: the one this process can answer, else the one the events say is open
 * (shown read-only).
 */
export function shownGate(pending: PendingGate | undefined, state: RunState, now: number): ShownGate {
  const gate = state.gate;
  const question: Question | undefined =
    pending?.question ??
    (gate
      ? {
          text: gate.text,
          type: gate.type,
          options: gate.options,
          stage: gate.nodeId,
          ...(gate.defaultChoice ? { defaultChoice: gate.defaultChoice } : {}),
        }
      : undefined);
  return {
    question,
    askedAt: pending?.askedAt ?? gate?.askedAt ?? now,
    timeoutMs: pending?.question.timeoutMs ?? gate?.timeoutMs,
  };
}
