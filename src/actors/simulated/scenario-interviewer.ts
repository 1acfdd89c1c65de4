import { normalizeLabel } from '../../compiler/accelerator.js';
import { AttractorError } from '../../shared/errors.js';
import type { Answer, Interviewer, Question } from '../interviewers/interviewer.js';
import type { Scenario } from './scenario.js';

/**
 * Answers human gates from a scenario's `answers` (matched by accelerator key or label,
 * case-insensitive); gates the scenario does not list go to the fallback interviewer.
 */
export function createScenarioInterviewer(scenario: Scenario, fallback: Interviewer): Interviewer {
  return {
    async ask(question: Question, signal: AbortSignal): Promise<Answer> {
      if (!scenario.hasAnswers(question.stage)) return fallback.ask(question, signal);
      const wanted = scenario.nextAnswer(question.stage) ?? '';
      const key = wanted.trim().toLowerCase();
      const selected =
        question.options.find((o) => o.key.toLowerCase() === key) ??
        question.options.find((o) => normalizeLabel(o.label) === normalizeLabel(wanted)) ??
        question.options.find((o) => o.label.toLowerCase() === key || o.target?.toLowerCase() === key);
      if (selected) return { selected };
      if (question.type === 'freeform') return { text: wanted };
      const yesNo = key === 'yes' || key === 'y' ? 'yes' : key === 'no' || key === 'n' ? 'no' : undefined;
      if (yesNo) return { value: yesNo };
      const choices = question.options.map((o) => `[${o.key}] ${o.label}`).join(', ');
      throw new AttractorError(
        'SCENARIO_ANSWER_UNKNOWN',
        `scenario answer "${wanted}" for gate ${question.stage} matches none of its choices: ${choices}.`,
      );
    },
  };
}
