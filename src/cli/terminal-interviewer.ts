import { withAnswerChannel } from '../actors/interviewers/answer-channel-interviewer.js';
import { AutoApproveInterviewer } from '../actors/interviewers/auto-approve.js';
import { ConsoleInterviewer } from '../actors/interviewers/console.js';
import type { Answer, Interviewer, Question } from '../actors/interviewers/interviewer.js';
import { AttractorError } from '../shared/errors.js';
import { localIdentity } from '../shared/identity.js';

/**
 * `--auto-approve` and dry runs: the first option, always (the library's AutoApproveInterviewer, so
 * the CLI, the server and the library route alike); without auto-approval nobody can answer.
 */
export function createNonInteractiveInterviewer(options: { autoApprove: boolean }): Interviewer {
  if (options.autoApprove) return new AutoApproveInterviewer();
  return {
    async ask(question: Question): Promise<Answer> {
      throw noAnswerPossible(question);
    },
  };
}

function noAnswerPossible(question: Question): AttractorError {
  return new AttractorError(
    'NO_INTERVIEWER',
    `human gate ${question.stage} needs an answer, but stdin is closed and the gate has no default to wait for: pass --auto-approve (every gate takes its first option), script the answer with --scenario, or give the gate human.default_choice and human.timeout, so it waits that long for \`attractor attach <run-dir> --answer <key>\` and then takes the default.`,
  );
}

/**
 * Nobody can type (stdin ended on a pipe): a gate with a default and a timeout waits that long, still
 * answerable through the run directory (`attractor attach --answer`), and then takes its default (the
 * gate's timer does); any other gate fails at once, saying how to answer.
 */
function waitForDefault(output: NodeJS.WritableStream) {
  return (question: Question, signal: AbortSignal): Promise<Answer> => {
    if (question.defaultChoice === undefined || question.timeoutMs === undefined)
      throw noAnswerPossible(question);
    output.write(
      `[i] ${question.stage}: stdin is closed; waiting ${Math.ceil(question.timeoutMs / 1000)}s for an answer (attractor attach <run-dir> --answer <key>), then taking the default ${question.defaultChoice}\n`,
    );
    return new Promise<Answer>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
}

export interface AnsweringInterviewer extends Interviewer {
  /** The run directory whose answer channel publishes the questions; known once the run started. */
  setRunDir(dir: string): void;
  /** Stops reading stdin. */
  close(): void;
  /** The gate whose question waits for an answer now, if one does. */
  pendingGate(): string | undefined;
}

/**
 * A run without the TUI and without `--auto-approve` (`--no-tui`, `--json`, a pipe): each question is
 * printed on stderr (stdout stays clean) and answered by the first of a line on stdin or an answer
 * file in the run directory's channel (`attractor attach`, a script). On a terminal the end of input
 * (Ctrl-D) skips the question; a closed pipe means nobody can type an answer, so a gate with a default
 * and a timeout waits for it (answerable through the channel meanwhile) and any other gate fails
 * saying how to answer instead of waiting for ever (docs/decisions/0024-gates-answer-through-the-run-directory.md).
 */
export function createAnsweringInterviewer(
  options: { stdinIsTTY?: boolean; input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream } = {},
): AnsweringInterviewer {
  const output = options.output ?? process.stderr;
  const stdinIsTTY = options.stdinIsTTY ?? process.stdin.isTTY === true;
  const lines = new ConsoleInterviewer({
    input: options.input ?? process.stdin,
    output,
    ...(stdinIsTTY ? {} : { onInputEnd: waitForDefault(output) }),
  });
  let runDir: string | undefined;
  const channel = withAnswerChannel(lines, () => runDir, {
    answeredBy: localIdentity(),
    onAnsweredElsewhere(question, answer, file) {
      const what = answer.selected?.label ?? answer.text ?? answer.value ?? '';
      output.write(
        `\n[i] ${question.stage}: answered by ${file.answered_by ?? 'another process'}: ${what}\n`,
      );
    },
  });
  const pending: string[] = [];
  return {
    async ask(question, signal) {
      pending.push(question.stage);
      try {
        return await channel.ask(question, signal);
      } finally {
        pending.splice(pending.indexOf(question.stage), 1);
      }
    },
    pendingGate: () => pending[0],
    inform: (message, stage) => lines.inform(message, stage),
    setRunDir(dir) {
      runDir = dir;
    },
    close: () => lines.close(),
  };
}
