import type { Answer, Interviewer, Question } from './interviewer.js';

export type AskCallback = (question: Question, signal: AbortSignal) => Answer | Promise<Answer>;

/** Delegates to a function: how the HTTP server and the TUI plug their own question UI in. */
export class CallbackInterviewer implements Interviewer {
  readonly #ask: AskCallback;
  readonly #inform: ((message: string, stage: string) => void) | undefined;

  constructor(ask: AskCallback, inform?: (message: string, stage: string) => void) {
    this.#ask = ask;
    this.#inform = inform;
  }

  async ask(question: Question, signal: AbortSignal): Promise<Answer> {
    return this.#ask(question, signal);
  }

  inform(message: string, stage: string): void {
    this.#inform?.(message, stage);
  }
}
