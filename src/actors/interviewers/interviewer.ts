/** The interviewer protocol: how a human gate asks its question. */
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
  /** Whatever the asker wants an interviewer (a UI, an audit log) to know; passed through untouched. */
  metadata?: Record<string, unknown>;
  /**
   * The option a free-text answer takes, when the question accepts free text besides its options (a
   * gate with `human.freeform`). Without it only a `freeform` question accepts text; any other answer
   * must name an option (`checkAnswer`).
   */
  textOption?: QuestionOption;
  /**
   * This asking's id, unique in its run (a second visit of a gate gets a new one): set by the run
   * directory's answer channel, so the HTTP server, `attach` and the answer files all use the same id.
   */
  id?: string;
}

/** `auto-approved`: the AutoApproveInterviewer's answer to a question that has no option to pick. */
export type AnswerValue = 'yes' | 'no' | 'skipped' | 'timeout' | 'auto-approved';

export interface Answer {
  /** The chosen option, for multiple choice. */
  selected?: QuestionOption;
  value?: AnswerValue;
  /** Free text, for freeform questions. */
  text?: string;
  /**
   * Who gave it (`shared/identity.ts`), recorded as `answered_by` in the answer file and the
   * `interview.complete` event (decision 0410). An interviewer that answers for a person says who.
   */
  answeredBy?: string;
}

export interface Interviewer {
  ask(question: Question, signal: AbortSignal): Promise<Answer>;
  /** Several questions at once (a form); without it, `askMultiple()` asks them one by one. */
  askMultiple?(questions: readonly Question[], signal: AbortSignal): Promise<Answer[]>;
  /** A yes/no confirmation; without it, `confirm()` asks a yes/no question. */
  confirm?(prompt: string, signal: AbortSignal, stage?: string): Promise<boolean>;
  inform?(message: string, stage: string): void;
}
