import { withAnswerChannel } from '../actors/interviewers/answer-channel-interviewer.js';
import { ConsoleInterviewer } from '../actors/interviewers/console.js';
import type { Answer, Interviewer, Question } from '../actors/interviewers/interviewer.js';
import { AttractorError } from '../shared/errors.js';

/** The auto-approving interviewer of `--auto-approve` and dry runs: the first option, always. */
export function createNonInteractiveInterviewer(options: { autoApprove: boolean }): Interviewer {
  return {
    async ask(question: Question): Promise<Answer> {
      if (options.autoApprove) {
        const first = question.options[0];
        return first ? { selected: first } : { value: 'yes', text: '' };
      }
      throw noAnswerPossible(question);
    },
  };
}

function noAnswerPossible(question: Question): AttractorError {
  return new AttractorError(
    'NO_INTERVIEWER',
    `human gate ${question.stage} needs an answer but there is no terminal: run in a terminal, or pass --auto-approve, or script the answer with --scenario (a run whose stdin stays open can also be answered with \`attractor attach <run-dir>\`).`,
  );
}

export interface AnsweringInterviewer extends Interviewer {
  /** The run directory whose answer channel publishes the questions; known once the run started. */
  setRunDir(dir: string): void;
  /** Stops reading stdin. */
  close(): void;
}

/**
 * A run without the TUI and without `--auto-approve` (`--no-tui`, `--json`, a pipe): each question is
 * printed on stderr (stdout stays clean) and answered by the first of a line on stdin or an answer
 * file in the run directory's channel (`attractor attach`, a script). On a terminal the end of input
 * (Ctrl-D) skips the question; a closed pipe means nobody can type an answer, so the gate fails
 * saying how to answer instead of waiting for ever (docs/decisions.md D18).
 */
export function createAnsweringInterviewer(
  options: { stdinIsTTY?: boolean; input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream } = {},
): AnsweringInterviewer {
  const output = options.output ?? process.stderr;
  const stdinIsTTY = options.stdinIsTTY ?? process.stdin.isTTY === true;
  const lines = new ConsoleInterviewer({
    input: options.input ?? process.stdin,
    output,
    ...(stdinIsTTY
      ? {}
      : {
          onInputEnd: (question: Question): Answer => {
            throw noAnswerPossible(question);
          },
        }),
  });
  let runDir: string | undefined;
  const channel = withAnswerChannel(lines, () => runDir, {
    answeredBy: 'terminal',
    onAnsweredElsewhere(question, answer, file) {
      const what = answer.selected?.label ?? answer.text ?? answer.value ?? '';
      output.write(
        `\n[i] ${question.stage}: answered by ${file.answered_by ?? 'another process'}: ${what}\n`,
      );
    },
  });
  return {
    ask: (question, signal) => channel.ask(question, signal),
    inform: (message, stage) => lines.inform(message, stage),
    setRunDir(dir) {
      runDir = dir;
    },
    close: () => lines.close(),
  };
}
