import { mkdirSync, watch } from 'node:fs';
import { anySignal } from '../../shared/any-signal.js';
import { AttractorError } from '../../shared/errors.js';
import {
  type AnswerFile,
  answerFromFile,
  answersDir,
  answerToFile,
  closeQuestion,
  nextQuestionId,
  readAnswerFile,
  readQuestionFiles,
  refuseAnswerFile,
  removeQuestionFile,
  toQuestionFile,
  writeAnswerFile,
  writeQuestionFile,
} from './answer-channel.js';
import { checkAnswer } from './check-answer.js';
import { isGateTimeout } from './gate-timed-out.js';
import type { Answer, Interviewer, Question } from './interviewer.js';

/**
 * The reason the wrapped interviewer's ask is aborted with when an answer file won: the question was
 * answered, not abandoned, so whatever the wrapped interviewer keeps about it (a prompt on a terminal,
 * a question listed over HTTP) is withdrawn for good rather than kept for a resumed gate.
 */
export const ANSWERED_ELSEWHERE = 'ANSWERED_ELSEWHERE';

export function isAnsweredElsewhere(reason: unknown): boolean {
  return AttractorError.isInstance(reason) && reason.code === ANSWERED_ELSEWHERE;
}

export interface AnswerChannelOptions {
  /** Called when an answer file won, so the wrapped interviewer's user can be told who answered. */
  onAnsweredElsewhere?(question: Question, answer: Answer, file: AnswerFile): void;
  /** Called when an answer file named no option: it was moved aside and the question still waits. */
  onRefused?(question: Question, file: AnswerFile, reason: string): void;
  /** Recorded as `answered_by` when the wrapped interviewer answers without saying who (default "run"). */
  answeredBy?: string;
}

/**
 * Publishes every question in the run directory's answer channel (answer-channel.ts) and takes the
 * first answer from either the wrapped interviewer (a terminal, the TUI, the HTTP server) or an answer
 * file written by another process. `runDir` is read when a question is asked: the directory is known
 * only once the run has started. The wrapper keeps the wrapped interviewer's `close()`.
 *
 * Each asking gets an id unique in the run (`Question.id`, passed on to the wrapped interviewer), so a
 * gate visited again asks a new question. How a question ends is recorded: answered (the answer
 * file), timed out or given up (a closing record in its place), or left open when the run stops
 * (cancel, pause, a kill) — the resumed gate then asks it again under the same id and takes an
 * answer written meanwhile (docs/decisions/0024-gates-answer-through-the-run-directory.md).
 */
export function withAnswerChannel<T extends Interviewer & { close?(): void }>(
  inner: T,
  runDir: () => string | undefined,
  options: AnswerChannelOptions = {},
): Interviewer & { close?(): void } {
  // Questions this wrapper has published and not yet withdrawn.
  const open = new Set<string>();
  return {
    ...(inner.inform ? { inform: inner.inform.bind(inner) } : {}),
    ...(inner.close ? { close: inner.close.bind(inner) } : {}),
    async ask(question: Question, signal: AbortSignal): Promise<Answer> {
      const dir = runDir();
      if (dir === undefined) return inner.ask(question, signal);
      signal.throwIfAborted();
      // A question of this gate left open by a run that stopped while it waited (a cancel, a pause, a
      // kill) belongs to a visit that never completed: it is asked again under its id, and an answer
      // written meanwhile is taken.
      const left = readQuestionFiles(dir).find((f) => f.node_id === question.stage && !open.has(f.id));
      const id = left?.id ?? nextQuestionId(dir, question.stage, open);
      open.add(id);
      const asked: Question = { ...question, id };
      const done = new AbortController();
      const combined = anySignal([signal, done.signal]);
      const both = combined.signal;
      mkdirSync(answersDir(dir), { recursive: true });
      let fileWon: AnswerFile | undefined;
      const fromFile = new Promise<Answer>((resolve) => {
        const check = () => {
          const file = readAnswerFile(dir, id);
          if (!file || fileWon || file.closed) return;
          const answer = answerFromFile(asked, file);
          const checked = answer ? checkAnswer(asked, answer) : undefined;
          if (!answer || !checked?.ok) {
            const reason = checked && !checked.ok ? checked.reason : 'the answer file holds no answer';
            refuseAnswerFile(dir, file, reason);
            options.onRefused?.(asked, file, reason);
            return;
          }
          fileWon = file;
          // Settled first, so the race takes this answer rather than the inner ask's rejection; then
          // the inner ask is withdrawn with a reason that says "answered", not "abandoned".
          resolve(file.answered_by !== undefined ? { ...answer, answeredBy: file.answered_by } : answer);
          done.abort(
            new AttractorError(ANSWERED_ELSEWHERE, `answered by ${file.answered_by ?? 'another process'}`),
          );
        };
        const watcher = watch(answersDir(dir), check);
        both.addEventListener('abort', () => watcher.close(), { once: true });
        writeQuestionFile(dir, toQuestionFile(id, asked, new Date()));
        check();
      });
      // An answer already there (written while the process that asked was dead) is not asked again.
      const fromInner = fileWon ? fromFile : inner.ask(asked, both);
      // Once a file answers, the inner ask is aborted and rejects: that rejection is expected.
      fromInner.catch(() => {});
      // Open when the run stops: the resumed gate asks it again.
      let keepOpen = false;
      try {
        // The file first: when both have settled already, the answer beats the withdrawn ask's rejection.
        const answer = await Promise.race([fromFile, fromInner]);
        if (fileWon) {
          options.onAnsweredElsewhere?.(asked, answer, fileWon);
          return answer;
        }
        // An interviewer that says the gate timed out closes the question as the gate's own timer does.
        if (answer.value === 'timeout') {
          closeQuestion(dir, id, 'timed_out', new Date());
          return answer;
        }
        // The record of who answered; a late writer then finds the answer taken instead of talking to no one.
        const by = answer.answeredBy ?? options.answeredBy ?? 'run';
        writeAnswerFile(dir, answerToFile(id, answer, by, new Date()));
        return { ...answer, answeredBy: by };
      } catch (error) {
        const reason: unknown = signal.aborted ? signal.reason : undefined;
        const timedOut = isGateTimeout(reason);
        if (signal.aborted && !timedOut) keepOpen = true;
        else closeQuestion(dir, id, timedOut ? 'timed_out' : 'withdrawn', new Date());
        throw error;
      } finally {
        if (!done.signal.aborted) done.abort(new Error('answered'));
        combined.dispose();
        if (!keepOpen) removeQuestionFile(dir, id);
        open.delete(id);
      }
    },
  };
}
