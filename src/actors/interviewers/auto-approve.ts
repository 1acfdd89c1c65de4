import type { Answer, Interviewer, Question } from './interviewer.js';
import { isNoLike } from './match-option.js';

/**
 * Approves every question the same way, whatever its type (docs/decisions/0024-gates-answer-through-the-run-directory.md): the
 * first option — the first outgoing edge of a gate, even on a yes/no gate whose first edge is "No" —
 * so `--auto-approve`, `--dry-run`, the server's `auto_approve` and this class route a pipeline
 * identically. A yes/no or confirmation answer also carries the value its first option means; a
 * question without options gets YES (yes/no, confirmation) or the value `auto-approved`.
 *
 * @example
 * await runPipeline({ source, backend, interviewer: new AutoApproveInterviewer() });
 */
export class AutoApproveInterviewer implements Interviewer {
  async ask(question: Question): Promise<Answer> {
    const yesNo = question.type === 'yes_no' || question.type === 'confirmation';
    const first = question.options[0];
    if (first)
      return yesNo ? { selected: first, value: isNoLike(first.label) ? 'no' : 'yes' } : { selected: first };
    return yesNo ? { value: 'yes' } : { value: 'auto-approved' };
  }
}
