import { checkAnswer } from '../actors/interviewers/check-answer.js';
import type { Answer, Interviewer, Question } from '../actors/interviewers/interviewer.js';
import { resolveScriptedAnswer } from '../actors/interviewers/resolve-scripted-answer.js';
import { AttractorError } from '../shared/errors.js';
import type { Scenario } from './scenario.js';

/**
 * Answers human gates from a scenario's `answers` (matched by accelerator key, label or target,
 * case-insensitive; free text only at a gate that accepts it); gates the scenario does not list go to
 * the fallback interviewer. An answer naming no option stops the gate with the options it has.
 */
export function createScenarioInterviewer(scenario: Scenario, fallback: Interviewer): Interviewer {
  return {
    async ask(question: Question, signal: AbortSignal): Promise<Answer> {
      if (!scenario.hasAnswers(question.stage)) return fallback.ask(question, signal);
      const wanted = scenario.nextAnswer(question.stage) ?? '';
      const answer: Answer =
        question.type === 'freeform' ? { text: wanted } : resolveScriptedAnswer(question, wanted);
      const checked = checkAnswer(question, answer);
      if (checked.ok) return answer;
      throw new AttractorError('SCENARIO_ANSWER_UNKNOWN', `scenario answer ${checked.reason}.`);
    },
  };
}
