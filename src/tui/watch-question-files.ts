import { existsSync, type FSWatcher, watch } from 'node:fs';
import {
  answerToFile,
  closedReason,
  questionsDir,
  readPendingQuestions,
  toQuestion,
  writeAnswerFile,
} from '../actors/interviewers/answer-channel.js';
import { type Identity, localIdentity } from '../shared/identity.js';
import type { GateSource, PendingGate } from './gate-source.js';

/**
 * For `attach`: the run directory's waiting questions (answer-channel.ts) as a GateSource. Answering
 * writes an answer file; the running process picks it up and removes the question. Watches the
 * directory (fs.watch), never polls.
 */
export function watchQuestionFiles(
  runDir: string,
  by: Identity = localIdentity(),
): GateSource & { close(): void } {
  const listeners = new Set<() => void>();
  let current: PendingGate | undefined;
  let questionsWatcher: FSWatcher | undefined;
  const answered = new Set<string>();

  const rescan = () => {
    if (!questionsWatcher && existsSync(questionsDir(runDir))) {
      questionsWatcher = watch(questionsDir(runDir), rescan);
    }
    const first = readPendingQuestions(runDir).find((file) => !answered.has(file.id));
    if (first?.id === current?.id) return;
    current = first && {
      id: first.id,
      question: toQuestion(first),
      askedAt: Date.parse(first.asked_at) || Date.now(),
      answer(answer) {
        answered.add(first.id);
        const won = writeAnswerFile(runDir, answerToFile(first.id, answer, by, new Date()));
        rescan();
        return won ? undefined : closedReason(runDir, first.id);
      },
    };
    for (const listener of listeners) listener();
  };
  // The run directory changes whenever the run writes anything: cheap to rescan a tiny folder.
  const dirWatcher = watch(runDir, rescan);
  rescan();
  return {
    current: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      dirWatcher.close();
      questionsWatcher?.close();
    },
  };
}
