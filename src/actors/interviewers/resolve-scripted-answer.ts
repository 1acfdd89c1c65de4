import { definedFields } from '../../shared/defined-fields.js';
import type { Answer, Question } from './interviewer.js';
import { matchOption, yesNoOption } from './match-option.js';

/**
 * Turn an answer written as text (a queue entry, a scenario answer, a typed line) into an Answer:
 * the option it names, yes/no for yes/no questions, else the text itself for the gate to judge.
 */
export function resolveScriptedAnswer(question: Question, text: string): Answer {
  const option = matchOption(question.options, text);
  if (option) return { selected: option };
  const word = text.trim().toLowerCase();
  if (question.type === 'yes_no' || question.type === 'confirmation') {
    if (word === 'y' || word === 'yes') {
      const selected = yesNoOption(question.options, true);
      return { value: 'yes', ...definedFields({ selected }) };
    }
    if (word === 'n' || word === 'no') {
      const selected = yesNoOption(question.options, false);
      return { value: 'no', ...definedFields({ selected }) };
    }
  }
  return { text };
}
