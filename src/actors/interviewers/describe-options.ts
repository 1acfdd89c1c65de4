import { stripAcceleratorPrefix } from '../../compiler/accelerator.js';
import type { QuestionOption } from './interviewer.js';

/**
 * A question's options as a person reads them, each key once: `[A] Approve, [R] Revise` (a label
 * written `[A] Approve` is not shown as `[A] [A] Approve`).
 */
export function describeOptions(options: readonly QuestionOption[]): string {
  return options.map((option) => `[${option.key}] ${stripAcceleratorPrefix(option.label)}`).join(', ');
}
