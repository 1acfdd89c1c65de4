import { isAnsweredElsewhere } from '../actors/interviewers/answer-channel-interviewer.js';
import { acceptsText, checkAnswer } from '../actors/interviewers/check-answer.js';
import type { Answer, Interviewer, Question } from '../actors/interviewers/interviewer.js';
import { matchOption } from '../actors/interviewers/match-option.js';
import { resolveScriptedAnswer } from '../actors/interviewers/resolve-scripted-answer.js';
import { definedFields } from '../shared/defined-fields.js';
import type { Identity } from '../shared/identity.js';
import { ApiError } from './api-error.js';
import { gateDeadline } from './gate-deadline.js';
import type { StoredQuestion } from './run-record.js';
import type { RunStore } from './run-store.js';

interface Waiting {
  question: Question;
  resolve: (answer: Answer) => void;
}

/** The Answer an HTTP answer string means: an option's key, label or target, yes/no, or free text. */
function parseAnswer(question: Question, text: string): Answer {
  return question.type === 'freeform' ? { text } : resolveScriptedAnswer(question, text);
}

/** A stored question as the interviewer protocol's Question, to check an answer against it. */
function storedAsQuestion(stored: StoredQuestion): Question {
  const textOption =
    stored.text_option === undefined ? undefined : matchOption(stored.options, stored.text_option);
  return {
    id: stored.id,
    text: stored.text,
    type: stored.type,
    options: stored.options,
    stage: stored.stage,
    ...definedFields({ textOption }),
  };
}

/**
 * 422 for an answer that names none of the question's options (and free text where the question
 * takes none): the run keeps waiting, and the body lists what would be accepted.
 */
function checked(question: Question, text: string): Answer {
  const answer = parseAnswer(question, text);
  const result = checkAnswer(question, answer);
  if (result.ok) return answer;
  throw new ApiError(422, 'ANSWER_NO_OPTION', `${result.reason}.`, {
    question_id: question.id,
    options: question.options.map((o) => ({ key: o.key, label: o.label })),
    accepts_text: acceptsText(question),
  });
}

/**
 * Human gates answered over HTTP. Each question is written to the store before the gate waits, so a
 * restarted server lists it again; an answer given while the run is not live (after a crash) is kept
 * and consumed when the resumed gate asks the same question. The id is the one the run directory's
 * answer channel gives the asking (`Question.id`: unique per visit, kept when a resumed gate asks
 * again), so an answer meant for an earlier visit is refused (409).
 */
export class HttpInterviewer implements Interviewer {
  readonly #runId: string;
  readonly #store: RunStore;
  readonly #waiting = new Map<string, Waiting>();
  readonly #onChange: () => void;
  readonly #released: boolean;
  #counter = 0;

  /** Questions waiting for an answer in this process. */
  get waiting(): number {
    return this.#waiting.size;
  }

  isWaiting(questionId: string): boolean {
    return this.#waiting.has(questionId);
  }

  /**
   * `released`: the run stops while a gate waits (a worker) and continues later, maybe on another
   * machine whose run directory never saw the question. Then the database's question is the gate's:
   * found by its gate when the answer channel's id differs, it keeps its id and first asking time,
   * and once its `human.timeout` has passed since then the gate is told it timed out.
   */
  constructor(
    runId: string,
    store: RunStore,
    onChange: () => void = () => {},
    options: { released?: boolean } = {},
  ) {
    this.#runId = runId;
    this.#store = store;
    this.#onChange = onChange;
    this.#released = options.released ?? false;
  }

  ask(question: Question, signal: AbortSignal): Promise<Answer> {
    const stored = this.#store.questions(this.#runId);
    // A question left from before a restart keeps its id; an answer given meanwhile wins. Without the
    // channel's id (no run directory), the gate's own earlier question is the one asked again.
    const earlier =
      question.id !== undefined
        ? (stored.find((q) => q.id === question.id) ??
          (this.#released ? stored.find((q) => q.stage === question.stage) : undefined))
        : stored.find((q) => q.stage === question.stage);
    if (earlier?.status === 'answered' && earlier.answer !== undefined) {
      this.#store.saveQuestions(
        this.#runId,
        stored.filter((q) => q !== earlier),
      );
      const by = earlier.answered_by;
      return Promise.resolve({
        ...parseAnswer(question, earlier.answer),
        ...definedFields({ answeredBy: by }),
      });
    }
    const kept = this.#released ? earlier : undefined;
    if (kept && question.timeoutMs !== undefined) {
      const deadline = gateDeadline({ asked_at: kept.asked_at, timeout_seconds: question.timeoutMs / 1000 });
      if (deadline !== undefined && deadline <= Date.now()) {
        // The gate's own timer started again with this asking: the wait it bounds is already over.
        this.#store.saveQuestions(
          this.#runId,
          stored.filter((q) => q !== kept),
        );
        return Promise.resolve({ value: 'timeout' });
      }
    }
    const id = kept?.id ?? question.id ?? earlier?.id ?? `${question.stage}-${Date.now()}-${++this.#counter}`;
    const asked: Question = { ...question, id };
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
      ...(question.textOption ? { text_option: question.textOption.key } : {}),
      ...(question.timeoutMs !== undefined ? { timeout_seconds: question.timeoutMs / 1000 } : {}),
      asked_at: kept?.asked_at ?? new Date().toISOString(),
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
        question: asked,
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort);
          finish();
          resolve(answer);
        },
      });
    });
  }

  /**
   * Answer a pending question of a live run: 409 when it is not pending (answered, closed, or an
   * earlier visit's), 422 when the answer names none of its options.
   */
  answer(questionId: string, text: string, by: Identity): void {
    const waiting = this.#waiting.get(questionId);
    if (!waiting) throw notPending(questionId);
    waiting.resolve({ ...checked(waiting.question, text), answeredBy: by });
  }
}

const notPending = (questionId: string): ApiError =>
  new ApiError(
    409,
    'QUESTION_NOT_PENDING',
    `question ${questionId} is not pending: it was answered or closed, or belongs to an earlier visit of its gate.`,
  );

/** Answer a question of a run that is not live (its server died): kept for the resumed gate. */
export function recordOfflineAnswer(
  store: RunStore,
  runId: string,
  questionId: string,
  text: string,
  by: Identity,
): void {
  store.saveQuestions(runId, withOfflineAnswer(store.questions(runId), questionId, text, by));
}

/**
 * `stored` with question `questionId` answered `text` by `by`, for the gate that asks it again; 409 when it is
 * not pending (answered already, or closed), 422 when `text` names none of its options.
 */
export function withOfflineAnswer(
  stored: readonly StoredQuestion[],
  questionId: string,
  text: string,
  by: Identity,
): StoredQuestion[] {
  const question = stored.find((q) => q.id === questionId);
  if (question?.status !== 'pending') throw notPending(questionId);
  checked(storedAsQuestion(question), text);
  return stored.map((q) =>
    q === question ? { ...q, status: 'answered' as const, answer: text, answered_by: by } : q,
  );
}
