import { ConsoleInterviewer } from '../actors/interviewers/console.js';
import type { Answer, Interviewer, Question } from '../actors/interviewers/interviewer.js';
import { AttractorError } from '../shared/errors.js';

/**
 * Without a terminal (CI, pipes), a human gate cannot ask anyone: with `--auto-approve` (or in a dry
 * run) it takes the first option; otherwise it stops the run with a message saying how to answer.
 */
export function createNonInteractiveInterviewer(options: { autoApprove: boolean }): Interviewer {
  return {
    async ask(question: Question): Promise<Answer> {
      if (options.autoApprove) {
        const first = question.options[0];
        return first ? { selected: first } : { value: 'yes', text: '' };
      }
      throw new AttractorError(
        'NO_INTERVIEWER',
        `human gate ${question.stage} needs an answer but there is no terminal: run in a terminal, or pass --auto-approve, or script the answer with --scenario.`,
      );
    },
  };
}

/** Asks on the terminal (stderr for the question, stdin for the answer), so stdout stays clean. */
export function createTerminalInterviewer(): Interviewer {
  return new ConsoleInterviewer({ input: process.stdin, output: process.stderr });
}
