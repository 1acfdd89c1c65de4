import { type FSWatcher, watch } from 'node:fs';
import path from 'node:path';
import {
  answerFromFile,
  closedReason,
  type QuestionFile,
  readPendingQuestions,
  readQuestionFile,
  toQuestion,
  writeAnswerFile,
} from '../actors/interviewers/answer-channel.js';
import { checkAnswer } from '../actors/interviewers/check-answer.js';
import { AttractorError } from '../shared/errors.js';
import { localIdentity } from '../shared/identity.js';
import type { CliContext } from './cli-context.js';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.js';

/**
 * What the answer file of `choice` says for this question (exactly what the run will read back), or
 * an error naming the options: free text only where the gate takes it.
 */
function answerFields(
  file: QuestionFile,
  choice: string,
): { fields: { choice: string } | { text: string }; shown: string } {
  const question = toQuestion(file);
  const checked = checkAnswer(
    question,
    answerFromFile(question, { id: file.id, choice, answered_at: '' }) ?? {},
  );
  if (!checked.ok) throw new AttractorError('ANSWER_NO_OPTION', `${checked.reason}.`);
  // What the gate will take, as its option says it (not the key or word typed), and any free text.
  const label = checked.option?.label;
  const shown =
    checked.text !== undefined
      ? `${label ? `${label}: ` : ''}${JSON.stringify(checked.text)}`
      : (label ?? choice);
  // As typed: the run resolves it exactly as checked here (a key shared by two options stays the one meant).
  return { fields: checked.text !== undefined ? { text: checked.text } : { choice }, shown };
}

/**
 * `attractor attach <run-dir> --answer <choice> [--question <id>]`: answers the question the run
 * waits on (or the next one it asks; or question `id` only) through the run directory's answer
 * channel, without a terminal. Exits 1 when the run ends without asking, when another answer got there
 * first, when the question is closed (answered, timed out, an earlier visit's), or when the answer
 * names no option.
 */
export async function answerGate(
  runDir: string,
  choice: string,
  ctx: CliContext,
  questionId?: string,
): Promise<number> {
  if (questionId !== undefined) {
    const closed = closedReason(runDir, questionId);
    if (closed) {
      ctx.io.stderr(`attractor: ${closed}\n`);
      return EXIT_FAILURE;
    }
  }
  const { followLines } = await import('../tui/follow-file.js');
  let settle: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => {
    settle = resolve;
  });
  let answered = false;
  const tryAnswer = () => {
    if (answered) return;
    const file =
      questionId === undefined ? readPendingQuestions(runDir)[0] : readQuestionFile(runDir, questionId);
    if (!file) return;
    answered = true;
    try {
      const { fields, shown } = answerFields(file, choice);
      const won = writeAnswerFile(runDir, {
        id: file.id,
        ...fields,
        answered_by: localIdentity(),
        answered_at: new Date().toISOString(),
      });
      if (!won) {
        ctx.io.stderr(
          `attractor: gate ${file.node_id}: ${closedReason(runDir, file.id) ?? `question ${file.id} was already answered.`}\n`,
        );
        settle(EXIT_FAILURE);
        return;
      }
      ctx.io.stdout(`Answered ${file.node_id} (question ${file.id}): ${shown}\n`);
      settle(EXIT_OK);
    } catch (error) {
      ctx.io.stderr(`attractor: ${(error as Error).message}\n`);
      settle(EXIT_FAILURE);
    }
  };
  let questionsWatcher: FSWatcher | undefined;
  const watchQuestions = () => {
    if (questionsWatcher) return;
    try {
      questionsWatcher = watch(path.join(runDir, 'questions'), tryAnswer);
    } catch {
      // Not there yet: the run-directory watcher calls again.
    }
  };
  const onChange = () => {
    watchQuestions();
    tryAnswer();
  };
  // The run directory changes whenever the run writes; the questions folder appears with the first gate.
  const watcher = watch(runDir, onChange);
  // Only the last process's end counts: a run paused (or killed) and resumed has an earlier
  // `pipeline.finalize` in its log, followed by a `pipeline.resume`.
  let ended = false;
  let live = false;
  const giveUp = () => {
    if (answered) return;
    answered = true;
    ctx.io.stderr(
      questionId === undefined
        ? 'attractor: the run ended without asking a question.\n'
        : `attractor: the run ended without asking question ${questionId}.\n`,
    );
    settle(EXIT_FAILURE);
  };
  const follower = followLines(path.join(runDir, 'events.jsonl'), (line) => {
    const kind = eventKind(line);
    if (kind === 'pipeline.start' || kind === 'pipeline.resume') ended = false;
    else if (kind === 'pipeline.finalize') ended = true;
    if (live && ended) giveUp();
  });
  live = true;
  // A question already waiting is answered before the log's history can say anything.
  onChange();
  if (ended) giveUp();
  const code = await done;
  watcher.close();
  questionsWatcher?.close();
  follower.close();
  return code;
}

function eventKind(line: string): string | undefined {
  try {
    const kind = (JSON.parse(line) as { kind?: unknown }).kind;
    return typeof kind === 'string' ? kind : undefined;
  } catch {
    return undefined;
  }
}
