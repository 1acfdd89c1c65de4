import type { Answer, Interviewer, Question } from './interviewer.js';
import { yesNoOption } from './match-option.js';

/**
 * Says yes to everything (reference §10): YES for yes/no and confirmation questions, the first option of
 * a multiple choice, `auto-approved` as free text. For CI and `--auto-approve`.
 */
export class AutoApproveInterviewer implements Interviewer {
  async ask(question: Question): Promise<Answer> {
    switch (question.type) {
      case 'yes_no':
      case 'confirmation': {
        const selected = yesNoOption(question.options, true);
        return { value: 'yes', ...(selected ? { selected } : {}) };
      }
      case 'multiple_choice': {
        const selected = question.options[0];
        return selected ? { selected } : { value: 'skipped' };
      }
      case 'freeform':
        return { text: 'auto-approved' };
    }
  }
}
