import { definedFields } from '../../shared/defined-fields.js';
import { describeOptions } from './describe-options.js';
import type { Answer, AnswerValue, Question, QuestionOption } from './interviewer.js';
import { matchOption, yesNoOption } from './match-option.js';
import { resolveScriptedAnswer } from './resolve-scripted-answer.js';

/** What an answer means for its question: the option it picks and the free text it carries. */
export type CheckedAnswer =
  | {
      ok: true;
      /** The chosen option (undefined only for a question without options, or a skip or timeout). */
      option?: QuestionOption;
      /** Free text, kept only when the question accepts it. */
      text?: string;
      /** `skipped` or `timeout`: no choice was made. */
      value?: Extract<AnswerValue, 'skipped' | 'timeout'>;
    }
  | { ok: false; reason: string };

/** A question takes free text when it is a freeform question or names the option free text follows. */
export const acceptsText = (question: Pick<Question, 'type' | 'textOption'>): boolean =>
  question.type === 'freeform' || question.textOption !== undefined;

/** The option `selected` stands for: the same object, the same edge, or at least the same key. */
function sameOption(
  options: readonly QuestionOption[],
  selected: QuestionOption,
): QuestionOption | undefined {
  return (
    options.find((option) => option === selected) ??
    options.find((option) => option.target === selected.target && option.label === selected.label) ??
    matchOption(options, selected.key)
  );
}

/**
 * The one rule every way of answering goes through (HTTP, the TUI, answer files, `attach`, scripted
 * and library interviewers, the gate itself): an answer is one of the question's options, or free
 * text for a question that asks for it, or it is refused with a reason that lists the options. Text
 * that matches no option never picks one by guessing.
 *
 * @example
 * const checked = checkAnswer(question, { text: 'looks fine' });
 * if (!checked.ok) console.error(checked.reason); // "looks fine" is none of the options of gate review: [Y] Yes, [N] No
 */
export function checkAnswer(question: Question, answer: Answer): CheckedAnswer {
  const { options } = question;
  if (answer.value === 'skipped' || answer.value === 'timeout') return { ok: true, value: answer.value };
  if (answer.selected) {
    const option = sameOption(options, answer.selected);
    if (option) return { ok: true, option };
    return refuse(question, answer.selected.label || answer.selected.key);
  }
  if (answer.text !== undefined) {
    const text = answer.text.trim();
    // A freeform question's text is the answer itself, even when it happens to spell an option.
    if (question.type === 'freeform' && text !== '') {
      const option = question.textOption ? sameOption(options, question.textOption) : options[0];
      return { ok: true, ...definedFields({ option }), text };
    }
    const named = resolveScriptedAnswer(question, text).selected;
    if (named) return { ok: true, option: named };
    if (question.textOption && text !== '') {
      const option = sameOption(options, question.textOption);
      if (option) return { ok: true, option, text };
    }
    return refuse(question, answer.text);
  }
  if (answer.value === 'yes' || answer.value === 'no') {
    if (options.length === 0) return { ok: true };
    const option = yesNoOption(options, answer.value === 'yes');
    return option ? { ok: true, option } : refuse(question, answer.value);
  }
  // Auto-approval takes the first option, whatever the question's type.
  if (answer.value === 'auto-approved') return options[0] ? { ok: true, option: options[0] } : { ok: true };
  return {
    ok: false,
    reason: `an empty answer is none of the options of ${where(question)}${listed(question)}`,
  };
}

const where = (question: Question): string => (question.stage ? `gate ${question.stage}` : 'the question');

function listed(question: Question): string {
  if (question.options.length === 0) return '';
  return `: ${describeOptions(question.options)}`;
}

function refuse(question: Question, said: string): CheckedAnswer {
  const text = said.trim() === '' ? 'an empty answer' : JSON.stringify(said);
  return { ok: false, reason: `${text} is none of the options of ${where(question)}${listed(question)}` };
}
