import { normalizeLabel } from '../../compiler/accelerator.js';
import { findChoice } from '../../compiler/gate-choices.js';
import type { QuestionOption } from './interviewer.js';

const YES = new Set([
  'yes',
  'y',
  'approve',
  'approved',
  'accept',
  'ok',
  'confirm',
  'proceed',
  'continue',
  'lgtm',
]);
const NO = new Set(['no', 'n', 'reject', 'rejected', 'deny', 'decline', 'revise', 'cancel', 'abort', 'stop']);

export const isYesLike = (label: string): boolean => YES.has(normalizeLabel(label));
export const isNoLike = (label: string): boolean => NO.has(normalizeLabel(label));

/**
 * The option a typed or scripted answer names: by accelerator key, by label (with or without its
 * `[K]` prefix), or by edge target, case-insensitively — in that order, so `A` is a key before a label.
 */
export function matchOption(options: readonly QuestionOption[], answer: string): QuestionOption | undefined {
  return findChoice(options, answer);
}

/** For yes/no questions: the option that means yes (or no), else the first (or last) option. */
export function yesNoOption(options: readonly QuestionOption[], yes: boolean): QuestionOption | undefined {
  const like = yes ? isYesLike : isNoLike;
  return options.find((option) => like(option.label)) ?? (yes ? options[0] : options.at(-1));
}
