import { existsSync, readFileSync } from 'node:fs';
import * as z from 'zod';
import { type Outcome, OutcomeSchema, StageStatusSchema } from '../compiler/outcome.js';
import { writeFileAtomic, writeFileAtomicAsync } from '../shared/atomic-write.js';
import { StatusFileError } from './status-file-error.js';

/**
 * `<stageDir>/status.json` (docs/semantics.md): the outcome with `status` written as `outcome`.
 * Only `outcome` is required. Agents write it by hand, so we accept upper-case statuses and the
 * older field name `preferred_next_label`.
 */
export const StatusFileSchema = OutcomeSchema.omit({ status: true }).extend({
  outcome: z.preprocess(
    (value) => (typeof value === 'string' ? value.toLowerCase() : value),
    StageStatusSchema,
  ),
  preferred_next_label: z.string().optional(),
});
export type StatusFile = z.infer<typeof StatusFileSchema>;

export function statusFileToOutcome(file: StatusFile): Outcome {
  const { outcome, preferred_next_label, preferred_label, ...rest } = file;
  const label = preferred_label || preferred_next_label;
  return { status: outcome, ...(label ? { preferred_label: label } : {}), ...rest };
}

export function outcomeToStatusFile(outcome: Outcome): StatusFile {
  const { status, preferred_label, suggested_next_ids, context_updates, notes, ...rest } = outcome;
  return {
    outcome: status,
    preferred_label: preferred_label ?? '',
    suggested_next_ids: suggested_next_ids ?? [],
    context_updates: context_updates ?? {},
    notes: notes ?? '',
    ...rest,
  };
}

/** The outcome in a status file, or undefined when there is none. Throws StatusFileError when malformed. */
export function readStatusFile(path: string): Outcome | undefined {
  if (!existsSync(path)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new StatusFileError(path, `not JSON (${(cause as Error).message})`, { cause });
  }
  const parsed = StatusFileSchema.safeParse(json);
  if (!parsed.success) {
    const detail = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new StatusFileError(path, detail.join('; '));
  }
  return statusFileToOutcome(parsed.data);
}

const statusFileText = (outcome: Outcome, extra?: Record<string, unknown>): string =>
  `${JSON.stringify({ ...outcomeToStatusFile(outcome), ...extra }, null, 2)}\n`;

/** `extra` adds fields a reader of the outcome ignores (the agent backend's `usage`). */
export function writeStatusFile(path: string, outcome: Outcome, extra?: Record<string, unknown>): void {
  writeFileAtomic(path, statusFileText(outcome, extra));
}

/**
 * A handler's `status.json`, on the thread pool while the event loop serves other runs: atomic, not
 * fsync'd, like every stage record (the checkpoint is the durable record: decision 0470).
 */
export function writeStatusFileAsync(
  path: string,
  outcome: Outcome,
  extra?: Record<string, unknown>,
): Promise<void> {
  return writeFileAtomicAsync(path, statusFileText(outcome, extra), { durable: false });
}
