import { isAnsweredElsewhere } from '../actors/interviewers/answer-channel-interviewer.js';
import type { Answer, Interviewer, Question } from '../actors/interviewers/interviewer.js';
import { resolveScriptedAnswer } from '../actors/interviewers/resolve-scripted-answer.js';
import { ApiError } from './api-error.js';
import type { StoredQuestion } from './run-record.js';
import type { RunStore } from './run-store.js';

interface Waiting {
  question: Question;
  resolve: (answer: Answer) => void;
}

/**
 * Human gates answered over HTTP. Each question is written to the store before the gate waits, so a
 * restarted server lists it again; an answer given while the run is not live (after a crash) is kept
 * and consumed when the resumed gate asks the same question. Question ids are stable across that
 * re-ask: the gate's node id plus a per-run counter.
 */
export class HttpInterviewer implements Interviewer {
  readonly #runId: string;
  readonly #store: RunStore;
  readonly #waiting = new Map<string, Waiting>();
  readonly #onChange: () => void;

  /** Questions waiting for an answer in this process. */
  get waiting(): number {
    return this.#waiting.size;
  }

  isWaiting(questionId: string): boolean {
    return this.#waiting.has(questionId);
  }

  constructor(runId: string, store: RunStore, onChange: () => void = () => {}) {
    this.#runId = runId;
    this.#store = store;
    this.#onChange = onChange;
  }

  ask(question: Question, signal: AbortSignal): Promise<Answer> {
    const stored = this.#store.questions(this.#runId);
    // A question left from before a restart (same gate) keeps its id; an answer given meanwhile wins.
    const earlier = stored.find((q) => q.stage === question.stage);
    if (earlier?.status === 'answered' && earlier.answer !== undefined) {
      this.#store.saveQuestions(
        this.#runId,
        stored.filter((q) => q !== earlier),
      );
      return Promise.resolve(resolveScriptedAnswer(question, earlier.answer));
    }
    const id = earlier?.id ?? `${question.stage}-${stored.length + 1}`;
    const record: StoredQuestion = {
      id,
      stage: question.stage,
      text: question.text,
      type: question.type,
      options: question.options.map((o) => ({
        key: o.key,
        label: o.label,
        ...(o.target ? { target: o.target } : {}),
      })),
      ...(question.timeoutMs !== undefined ? { timeout_seconds: question.timeoutMs / 1000 } : {}),
      asked_at: new Date().toISOString(),
      status: 'pending',
    };
    this.#store.saveQuestions(this.#runId, [...stored.filter((q) => q.id !== id), record]);
    this.#onChange();
    return new Promise<Answer>((resolve, reject) => {
      const finish = (): void => {
        this.#waiting.delete(id);
        this.#store.saveQuestions(
          this.#runId,
          this.#store.questions(this.#runId).filter((q) => q.id !== id),
        );
        this.#onChange();
      };
      // An aborted wait (timeout, cancel, drain) leaves the stored question: a resumed gate asks it
      // again under the same id; a run that really ended clears its questions. A question answered
      // through the run directory's answer channel is answered: it goes for good.
      const onAbort = (): void => {
        if (isAnsweredElsewhere(signal.reason)) finish();
        else this.#waiting.delete(id);
        reject(signal.reason ?? new Error('aborted'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(id, {
        question,
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort);
          finish();
          resolve(answer);
        },
      });
    });
  }

  /** Answer a pending question of a live run; 409 when it is not pending. */
  answer(questionId: string, text: string): void {
    const waiting = this.#waiting.get(questionId);
    if (!waiting) throw new ApiError(409, 'QUESTION_NOT_PENDING', `question ${questionId} is not pending.`);
    waiting.resolve(resolveScriptedAnswer(waiting.question, text));
  }
}

/** Answer a question of a run that is not live (its server died): kept for the resumed gate. */
export function recordOfflineAnswer(store: RunStore, runId: string, questionId: string, text: string): void {
  const stored = store.questions(runId);
  const question = stored.find((q) => q.id === questionId);
  if (question?.status !== 'pending') {
    throw new ApiError(409, 'QUESTION_NOT_PENDING', `question ${questionId} is not pending.`);
  }
  store.saveQuestions(
    runId,
    stored.map((q) => (q === question ? { ...q, status: 'answered' as const, answer: text } : q)),
  );
}
