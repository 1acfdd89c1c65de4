/** The interviewer protocol (reference §10): how a human gate asks its question. */
export type QuestionType = 'yes_no' | 'multiple_choice' | 'freeform' | 'confirmation';

export interface QuestionOption {
  /** Accelerator key, e.g. `A` for `[A] Approve`. */
  key: string;
  label: string;
  /** The edge target this option leads to. */
  target?: string;
}

export interface Question {
  text: string;
  type: QuestionType;
  options: QuestionOption[];
  /** The gate's node id. */
  stage: string;
  /** Milliseconds before the gate times out; undefined waits for ever. */
  timeoutMs?: number;
  defaultChoice?: string;
}

export type AnswerValue = 'yes' | 'no' | 'skipped' | 'timeout';

export interface Answer {
  /** The chosen option, for multiple choice. */
  selected?: QuestionOption;
  value?: AnswerValue;
  /** Free text, for freeform questions. */
  text?: string;
}

export interface Interviewer {
  ask(question: Question, signal: AbortSignal): Promise<Answer>;
  inform?(message: string, stage: string): void;
}
