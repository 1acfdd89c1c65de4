import { AttractorError } from '../../shared/errors.js';
import { checkAnswer } from './check-answer.js';
import type { Answer, Interviewer, Question } from './interviewer.js';
import { resolveScriptedAnswer } from './resolve-scripted-answer.js';

/**
 * Answers from a pre-filled queue, for tests and scenario files: one shared queue, or one per stage
 * (gate node id). Each answer names an option by accelerator key, label or target, case-insensitively
 * (free text only for a question that accepts it); an answer naming no option throws
 * `ANSWER_NO_OPTION` rather than picking one. An empty queue answers SKIPPED.
 *
 * @example
 * new QueueInterviewer(['A', 'reject']);
 * new QueueInterviewer({ review_gate: ['R', 'Approve'] });
 */
export class QueueInterviewer implements Interviewer {
  readonly #shared: string[];
  readonly #byStage: Map<string, string[]>;

  constructor(answers: readonly string[] | Readonly<Record<string, readonly string[]>>) {
    if (Array.isArray(answers)) {
      this.#shared = [...(answers as readonly string[])];
      this.#byStage = new Map();
    } else {
      this.#shared = [];
      this.#byStage = new Map(
        Object.entries(answers as Readonly<Record<string, readonly string[]>>).map(([stage, list]) => [
          stage,
          [...list],
        ]),
      );
    }
  }

  /** Answers not yet used: for a stage, or the shared queue. */
  remaining(stage?: string): number {
    return (stage === undefined ? this.#shared : (this.#byStage.get(stage) ?? [])).length;
  }

  async ask(question: Question): Promise<Answer> {
    const queue = this.#byStage.get(question.stage) ?? this.#shared;
    const next = queue.shift();
    if (next === undefined) return { value: 'skipped' };
    const answer = resolveScriptedAnswer(question, next);
    const checked = checkAnswer(question, answer);
    if (!checked.ok) throw new AttractorError('ANSWER_NO_OPTION', `queued answer ${checked.reason}.`);
    return answer;
  }
}
