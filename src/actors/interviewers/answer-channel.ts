import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import type { Answer, Question } from './interviewer.js';
import { matchOption } from './match-option.js';

/**
 * The file-based answer channel of a run directory: how a process other than the one running the
 * pipeline (`attractor attach`, the HTTP server, a script) answers a waiting human gate.
 *
 * - The running process writes `questions/<id>.json` (atomically) when a gate asks, and deletes it
 *   once the gate has its answer from any source.
 * - Anyone may answer by creating `answers/<id>.json`; creation is exclusive (first answer wins) and
 *   atomic (a reader never sees half a file). The answer file stays as a record of who answered.
 */
export const questionFileSchema = z.object({
  id: z.string(),
  node_id: z.string(),
  asked_at: z.string(),
  question: z.object({
    text: z.string(),
    type: z.enum(['yes_no', 'multiple_choice', 'freeform', 'confirmation']),
    options: z.array(z.object({ key: z.string(), label: z.string(), target: z.string().optional() })),
    timeout_ms: z.number().optional(),
    default_choice: z.string().optional(),
  }),
});
export type QuestionFile = z.infer<typeof questionFileSchema>;

export const answerFileSchema = z.object({
  id: z.string(),
  /** An option's accelerator key, label or target (matched like a typed answer). */
  choice: z.string().optional(),
  value: z.enum(['yes', 'no', 'skipped']).optional(),
  text: z.string().optional(),
  answered_by: z.string().optional(),
  answered_at: z.string(),
});
export type AnswerFile = z.infer<typeof answerFileSchema>;

export const questionsDir = (runDir: string): string => join(runDir, 'questions');
export const answersDir = (runDir: string): string => join(runDir, 'answers');

/** A file-name-safe, unique id for one asking of a gate. */
export function questionId(stage: string, at: number, counter: number): string {
  return `${stage.replace(/[^\w.-]/g, '_')}-${at}-${counter}`;
}

export function toQuestionFile(id: string, question: Question, askedAt: Date): QuestionFile {
  return {
    id,
    node_id: question.stage,
    asked_at: askedAt.toISOString(),
    question: {
      text: question.text,
      type: question.type,
      options: question.options.map(({ key, label, target }) => ({
        key,
        label,
        ...(target ? { target } : {}),
      })),
      ...(question.timeoutMs !== undefined ? { timeout_ms: question.timeoutMs } : {}),
      ...(question.defaultChoice !== undefined ? { default_choice: question.defaultChoice } : {}),
    },
  };
}

export function toQuestion(file: QuestionFile): Question {
  const q = file.question;
  return {
    text: q.text,
    type: q.type,
    stage: file.node_id,
    options: q.options.map(({ key, label, target }) => ({ key, label, ...(target ? { target } : {}) })),
    ...(q.timeout_ms !== undefined ? { timeoutMs: q.timeout_ms } : {}),
    ...(q.default_choice !== undefined ? { defaultChoice: q.default_choice } : {}),
  };
}

export function writeQuestionFile(runDir: string, file: QuestionFile): void {
  writeFileAtomic(join(questionsDir(runDir), `${file.id}.json`), `${JSON.stringify(file, null, 2)}\n`, {
    durable: false,
  });
}

export function removeQuestionFile(runDir: string, id: string): void {
  rmSync(join(questionsDir(runDir), `${id}.json`), { force: true });
}

function readJson<T>(path: string, schema: z.ZodType<T>): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Every question file, answered or not, oldest first. Unreadable or foreign files are ignored. */
export function readQuestionFiles(runDir: string): QuestionFile[] {
  const dir = questionsDir(runDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .map((name) => readJson(join(dir, name), questionFileSchema))
    .filter((file): file is QuestionFile => file !== undefined)
    .sort((a, b) => a.asked_at.localeCompare(b.asked_at));
}

/** Questions waiting now (no answer file yet), oldest first. */
export function readPendingQuestions(runDir: string): QuestionFile[] {
  return readQuestionFiles(runDir).filter((file) => !existsSync(join(answersDir(runDir), `${file.id}.json`)));
}

export function readAnswerFile(runDir: string, id: string): AnswerFile | undefined {
  return readJson(join(answersDir(runDir), `${id}.json`), answerFileSchema);
}

/**
 * Answers a question: written to a temp file, then hard-linked into place, which fails if an answer
 * is already there. Returns false when someone else answered first.
 */
export function writeAnswerFile(runDir: string, answer: AnswerFile): boolean {
  const dir = answersDir(runDir);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${answer.id}.${process.pid}.${Date.now()}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(answer, null, 2)}\n`);
  try {
    linkSync(tmp, join(dir, `${answer.id}.json`));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** The interviewer Answer an answer file means for its question. */
export function answerFromFile(question: Question, file: AnswerFile): Answer {
  if (file.choice !== undefined) {
    const option = matchOption(question.options, file.choice);
    if (option) return { selected: option };
    return { text: file.choice };
  }
  if (file.text !== undefined) return { text: file.text };
  return { value: file.value ?? 'skipped' };
}

/** The answer-file form of an Answer given in a TUI or a client. */
export function answerToFile(id: string, answer: Answer, by: string, at: Date): AnswerFile {
  return {
    id,
    ...(answer.selected ? { choice: answer.selected.key } : {}),
    ...(answer.text !== undefined ? { text: answer.text } : {}),
    ...(answer.value && answer.value !== 'timeout' ? { value: answer.value } : {}),
    answered_by: by,
    answered_at: at.toISOString(),
  };
}
