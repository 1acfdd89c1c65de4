import type { Answer, Interviewer, Question } from '../actors/interviewers/interviewer.js';
import type { GateSource, PendingGate } from './gate-source.js';

/**
 * The TUI's Interviewer: `ask` parks the question where the gate prompt sees it and resolves with
 * whatever the user picks there. One question at a time is shown; parallel branches' gates queue.
 */
export function createGateBroker(now: () => number = Date.now): Interviewer & GateSource {
  const queue: PendingGate[] = [];
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  let counter = 0;
  return {
    ask(question: Question, signal: AbortSignal): Promise<Answer> {
      signal.throwIfAborted();
      return new Promise<Answer>((resolve, reject) => {
        const remove = () => {
          const index = queue.indexOf(gate);
          if (index >= 0) queue.splice(index, 1);
          signal.removeEventListener('abort', onAbort);
          notify();
        };
        const onAbort = () => {
          remove();
          reject(signal.reason);
        };
        const gate: PendingGate = {
          id: question.id ?? `${question.stage}-${++counter}`,
          question,
          askedAt: now(),
          answer(answer) {
            if (!queue.includes(gate)) return `question ${gate.id} is closed: it was answered elsewhere.`;
            remove();
            resolve(answer);
            return undefined;
          },
        };
        queue.push(gate);
        signal.addEventListener('abort', onAbort, { once: true });
        notify();
      });
    },
    current: () => queue[0],
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
