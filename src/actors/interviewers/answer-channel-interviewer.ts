import { mkdirSync, watch } from 'node:fs';
import { anySignal } from '../../shared/any-signal.js';
import {
  answerFromFile,
  answersDir,
  questionId,
  readAnswerFile,
  removeQuestionFile,
  toQuestionFile,
  writeQuestionFile,
} from './answer-channel.js';
import type { Answer, Interviewer, Question } from './interviewer.js';

/**
 * Publishes every question in the run directory's answer channel (answer-channel.ts) and takes the
 * first answer from either the wrapped interviewer (the terminal in front of the user) or an answer
 * file written by another process. `runDir` is read when a question is asked: the directory is known
 * only once the run has started.
 */
export function withAnswerChannel(inner: Interviewer, runDir: () => string | undefined): Interviewer {
  let counter = 0;
  return {
    ...(inner.inform ? { inform: inner.inform.bind(inner) } : {}),
    async ask(question: Question, signal: AbortSignal): Promise<Answer> {
      const dir = runDir();
      if (dir === undefined) return inner.ask(question, signal);
      const id = questionId(question.stage, Date.now(), ++counter);
      const done = new AbortController();
      const combined = anySignal([signal, done.signal]);
      const both = combined.signal;
      mkdirSync(answersDir(dir), { recursive: true });
      const fromFile = new Promise<Answer>((resolve) => {
        const check = () => {
          const file = readAnswerFile(dir, id);
          if (file) resolve(answerFromFile(question, file));
        };
        const watcher = watch(answersDir(dir), check);
        both.addEventListener('abort', () => watcher.close(), { once: true });
        writeQuestionFile(dir, toQuestionFile(id, question, new Date()));
        check();
      });
      const fromInner = inner.ask(question, both);
      // Once a file answers, the inner ask is aborted and rejects: that rejection is expected.
      fromInner.catch(() => {});
      try {
        return await Promise.race([fromInner, fromFile]);
      } finally {
        done.abort(new Error('answered'));
        combined.dispose();
        removeQuestionFile(dir, id);
      }
    },
  };
}
