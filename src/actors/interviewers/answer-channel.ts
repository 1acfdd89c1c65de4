import { existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import { definedFields } from '../../shared/defined-fields.js';
import { readRunFile } from '../../shared/read-run-file.js';
import type { Answer, Question } from './interviewer.js';
import { matchOption } from './match-option.js';
import { resolveScriptedAnswer } from './resolve-scripted-answer.js';

/**
 * The file-based answer channel of a run directory: how a process other than the one running the
 * pipeline (`attractor attach`, the HTTP server, a script) answers a waiting human gate.
 *
 * - The running process writes `questions/<id>.json` (atomically) when a gate asks, and deletes it
 *   once the gate has its answer from any source.
 * - Anyone may answer by creating `answers/<id>.json`; creation is exclusive (first answer wins) and
 *   atomic (a reader never sees half a file). The answer file stays as a record of who answered.
 * - Ids are unique in the run directory (`<gate>-<n>`, n counting that gate's questions): a second
 *   visit of a gate asks a new question, so an answer meant for an earlier visit never answers it.
 * - A question closed without an answer (its gate timed out) gets an answer file saying so
 *   (`closed`), so a late answer finds the slot taken. A question whose run stopped (cancelled,
 *   paused, killed) stays open: the resumed gate asks it again under the same id.
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
    /** The key of the option free text follows (a gate with `human.freeform`); absent: options only. */
    text_option: z.string().optional(),
  }),
});
export type QuestionFile = z.infer<typeof questionFileSchema>;

export const answerFileSchema = z.object({
  id: z.string(),
  /** An option's accelerator key, label or target (matched like a typed answer). */
  choice: z.string().optional(),
  value: z.enum(['yes', 'no', 'skipped']).optional(),
  text: z.string().optional(),
  /** Written by the run, not a person: the question closed without an answer. */
  closed: z.enum(['timed_out', 'withdrawn']).optional(),
  answered_by: z.string().optional(),
  answered_at: z.string(),
});
export type AnswerFile = z.infer<typeof answerFileSchema>;

export const questionsDir = (runDir: string): string => join(runDir, 'questions');
export const answersDir = (runDir: string): string => join(runDir, 'answers');

const safeStage = (stage: string): string => stage.replace(/[^\w.-]/g, '_');

/**
 * A new question id for gate `stage`: `<gate>-<n>`, one more than any id of that gate the run
 * directory has seen (open questions and every answer or closing record), skipping `taken` ones
 * (asked in this process, not yet written). File-name safe; never reused within the run.
 */
export function nextQuestionId(
  runDir: string,
  stage: string,
  taken: ReadonlySet<string> = new Set(),
): string {
  const prefix = `${safeStage(stage)}-`;
  let highest = 0;
  for (const dir of [questionsDir(runDir), answersDir(runDir)]) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(prefix) || !name.endsWith('.json')) continue;
      const n = name.slice(prefix.length, -'.json'.length);
      if (/^\d+$/.test(n)) highest = Math.max(highest, Number(n));
    }
  }
  for (const id of taken) {
    const n = id.startsWith(prefix) ? id.slice(prefix.length) : '';
    if (/^\d+$/.test(n)) highest = Math.max(highest, Number(n));
  }
  return `${prefix}${highest + 1}`;
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
      ...definedFields({ timeout_ms: question.timeoutMs, default_choice: question.defaultChoice }),
      ...(question.textOption ? { text_option: question.textOption.key } : {}),
    },
  };
}

export function toQuestion(file: QuestionFile): Question {
  const q = file.question;
  const options = q.options.map(({ key, label, target }) => ({ key, label, ...(target ? { target } : {}) }));
  const textOption = q.text_option === undefined ? undefined : matchOption(options, q.text_option);
  return {
    text: q.text,
    type: q.type,
    stage: file.node_id,
    options,
    ...definedFields({ timeoutMs: q.timeout_ms, defaultChoice: q.default_choice, textOption }),
    id: file.id,
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
    const parsed = schema.safeParse(JSON.parse(readRunFile(path)));
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

/** One question file by id, if it is there (open). */
export function readQuestionFile(runDir: string, id: string): QuestionFile | undefined {
  return readJson(join(questionsDir(runDir), `${id}.json`), questionFileSchema);
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

/**
 * Moves an answer file the run could not take (it names no option) out of the answer slot, keeping it
 * beside as `<id>.refused-<ms>.json` with the reason, so a correct answer can still be written.
 */
export function refuseAnswerFile(runDir: string, file: AnswerFile, reason: string): void {
  const dir = answersDir(runDir);
  const aside = join(dir, `${file.id}.refused-${Date.now()}.json`);
  try {
    renameSync(join(dir, `${file.id}.json`), aside);
    writeFileAtomic(aside, `${JSON.stringify({ ...file, refused: reason }, null, 2)}\n`, { durable: false });
  } catch {
    // Someone removed it first: the slot is free either way.
  }
}

/** Records that a question closed without an answer; false when an answer got there first. */
export function closeQuestion(
  runDir: string,
  id: string,
  closed: 'timed_out' | 'withdrawn',
  at: Date,
): boolean {
  return writeAnswerFile(runDir, { id, closed, answered_by: 'run', answered_at: at.toISOString() });
}

/**
 * Why question `id` cannot be answered any more, for a person who tried: who answered it, or how it
 * closed; undefined while it is open.
 */
export function closedReason(runDir: string, id: string): string | undefined {
  const file = readAnswerFile(runDir, id);
  if (!file) return undefined;
  if (file.closed === 'timed_out')
    return `question ${id} is closed: its gate timed out (and took its default, if it has one).`;
  if (file.closed === 'withdrawn')
    return `question ${id} is closed: its gate stopped waiting without an answer.`;
  return `question ${id} was already answered${file.answered_by ? ` by ${file.answered_by}` : ''}.`;
}

/**
 * The interviewer Answer an answer file means for its question, or undefined for a closing record.
 * `choice` is read as typed text (an option's key, label or target; yes/no words at a yes/no gate;
 * free text where the question takes it); `checkAnswer` decides whether it stands.
 */
export function answerFromFile(question: Question, file: AnswerFile): Answer | undefined {
  if (file.closed !== undefined) return undefined;
  if (file.choice !== undefined) {
    return question.type === 'freeform'
      ? { text: file.choice }
      : resolveScriptedAnswer(question, file.choice);
  }
  if (file.text !== undefined) return { text: file.text };
  return { value: file.value ?? 'skipped' };
}

/** The answer-file form of an Answer given in a TUI or a client. */
export function answerToFile(id: string, answer: Answer, by: string, at: Date): AnswerFile {
  return {
    id,
    ...(answer.selected ? { choice: answer.selected.key } : {}),
    ...definedFields({ text: answer.text }),
    ...(answer.value === 'yes' || answer.value === 'no' || answer.value === 'skipped'
      ? { value: answer.value }
      : {}),
    answered_by: by,
    answered_at: at.toISOString(),
  };
}
