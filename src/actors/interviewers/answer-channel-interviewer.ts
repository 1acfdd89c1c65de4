import { mkdirSync, watch } from 'node:fs';
import { anySignal } from '../../shared/any-signal.js';
import { AttractorError } from '../../shared/errors.js';
import {
  type AnswerFile,
  answerFromFile,
  answersDir,
  answerToFile,
  questionId,
  readAnswerFile,
  readQuestionFiles,
  removeQuestionFile,
  toQuestionFile,
  writeAnswerFile,
  writeQuestionFile,
} from './answer-channel.js';
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
  /** Recorded as `answered_by` when the wrapped interviewer answers (default "run"). */
  answeredBy?: string;
}

/**
 * Publishes every question in the run directory's answer channel (answer-channel.ts) and takes the
 * first answer from either the wrapped interviewer (a terminal, the TUI, the HTTP server) or an answer
 * file written by another process. `runDir` is read when a question is asked: the directory is known
 * only once the run has started. The wrapper keeps the wrapped interviewer's `close()`.
 */
export function withAnswerChannel<T extends Interviewer & { close?(): void }>(
  inner: T,
  runDir: () => string | undefined,
  options: AnswerChannelOptions = {},
): Interviewer & { close?(): void } {
  let counter = 0;
  // Questions this wrapper has published and not yet withdrawn.
  const open = new Set<string>();
  return {
    ...(inner.inform ? { inform: inner.inform.bind(inner) } : {}),
    ...(inner.close ? { close: inner.close.bind(inner) } : {}),
    async ask(question: Question, signal: AbortSignal): Promise<Answer> {
      const dir = runDir();
      if (dir === undefined) return inner.ask(question, signal);
      signal.throwIfAborted();
      // A question of this gate left by a process that died while it waited (SIGKILL, a crash) is
      // asked again under its id, and an answer written meanwhile is taken (as the server does, D11.6).
      const left = readQuestionFiles(dir).find((f) => f.node_id === question.stage && !open.has(f.id));
      const id = left?.id ?? questionId(question.stage, Date.now(), ++counter);
      open.add(id);
      const done = new AbortController();
      const combined = anySignal([signal, done.signal]);
      const both = combined.signal;
      mkdirSync(answersDir(dir), { recursive: true });
      let fileWon: AnswerFile | undefined;
      const fromFile = new Promise<Answer>((resolve) => {
        const check = () => {
          const file = readAnswerFile(dir, id);
          if (!file || fileWon) return;
          fileWon = file;
          // Settled first, so the race takes this answer rather than the inner ask's rejection; then
          // the inner ask is withdrawn with a reason that says "answered", not "abandoned".
          resolve(answerFromFile(question, file));
          done.abort(
            new AttractorError(ANSWERED_ELSEWHERE, `answered by ${file.answered_by ?? 'another process'}`),
          );
        };
        const watcher = watch(answersDir(dir), check);
        both.addEventListener('abort', () => watcher.close(), { once: true });
        writeQuestionFile(dir, toQuestionFile(id, question, new Date()));
        check();
      });
      // An answer already there (written while the process that asked was dead) is not asked again.
      const fromInner = fileWon ? fromFile : inner.ask(question, both);
      // Once a file answers, the inner ask is aborted and rejects: that rejection is expected.
      fromInner.catch(() => {});
      try {
        // The file first: when both have settled already, the answer beats the withdrawn ask's rejection.
        const answer = await Promise.race([fromFile, fromInner]);
        if (fileWon) options.onAnsweredElsewhere?.(question, answer, fileWon);
        // The record of who answered; a late writer then finds the answer taken instead of talking to no one.
        else writeAnswerFile(dir, answerToFile(id, answer, options.answeredBy ?? 'run', new Date()));
        return answer;
      } finally {
        if (!done.signal.aborted) done.abort(new Error('answered'));
        combined.dispose();
        removeQuestionFile(dir, id);
        open.delete(id);
      }
    },
  };
}
