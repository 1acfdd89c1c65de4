import type { Answer, Interviewer, Question } from './interviewer.js';

export interface InterviewRecord {
  question: Question;
  answer: Answer;
}

/** Wraps another interviewer and keeps every question with its answer, for auditing and replay. */
export class RecordingInterviewer implements Interviewer {
  readonly #inner: Interviewer;
  readonly #records: InterviewRecord[] = [];

  constructor(inner: Interviewer) {
    this.#inner = inner;
  }

  /** A copy of the questions asked so far, with their answers, in order. */
  get records(): InterviewRecord[] {
    return [...this.#records];
  }

  async ask(question: Question, signal: AbortSignal): Promise<Answer> {
    const answer = await this.#inner.ask(question, signal);
    this.#records.push({ question, answer });
    return answer;
  }

  inform(message: string, stage: string): void {
    this.#inner.inform?.(message, stage);
  }
}
