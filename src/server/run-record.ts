import * as z from 'zod';
import { type RunStatus, RunStatusSchema } from '../shared/run-view-json.js';

/** What the client asked for when submitting the run; kept so a resume runs it the same way. */
export const RunRequestOptionsSchema = z.object({
  goal: z.string().optional(),
  model: z.string().optional(),
  dry_run: z.boolean().default(false),
  auto_approve: z.boolean().default(false),
  /** A scenario file's JSON text (docs/guides/pipelines.md, "Scenario files"). */
  scenario: z.string().optional(),
  max_cost_usd: z.number().positive().optional(),
  /** Values of the pipeline's declared parameters (graph attribute `vars`), as `--set` gives them. */
  vars: z.record(z.string(), z.string()).optional(),
  /** Where its tool commands and agents work: an absolute path the executing process must allow. */
  working_dir: z.string().optional(),
});
export type RunRequestOptions = z.infer<typeof RunRequestOptionsSchema>;

/** One run as the store keeps it (`record.json`). The run's own files live in `run_dir`. */
export const RunRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  goal: z.string(),
  status: RunStatusSchema,
  created_at: z.string(),
  updated_at: z.string(),
  /** Where the DOT source was read from (`<inline>` for `dot_source`); locations in errors name it. */
  source_file: z.string(),
  options: RunRequestOptionsSchema,
  run_dir: z.string().optional(),
  quality: z.enum(['clean', 'degraded', 'failed']).optional(),
  stopped_at: z.string().optional(),
  /** Who did what to it (decision 0410): started (submitted), forked it from another, resumed, cancelled it. */
  started_by: z.string().optional(),
  forked_by: z.string().optional(),
  resumed_by: z.string().optional(),
  cancelled_by: z.string().optional(),
  /** `code`: why a run failed before its pipeline started (`WORKDIR_NOT_ALLOWED`, …). */
  failure: z
    .object({ node: z.string().optional(), reason: z.string(), code: z.string().optional() })
    .optional(),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;

export const StoredQuestionSchema = z.object({
  id: z.string(),
  stage: z.string(),
  text: z.string(),
  type: z.enum(['yes_no', 'multiple_choice', 'freeform', 'confirmation']),
  options: z.array(z.object({ key: z.string(), label: z.string(), target: z.string().optional() })),
  timeout_seconds: z.number().optional(),
  /** The key of the option free text follows (a gate with `human.freeform`); absent: options only. */
  text_option: z.string().optional(),
  asked_at: z.string(),
  status: z.enum(['pending', 'answered']),
  /** The raw answer given over HTTP (accelerator key, option label or free text). */
  answer: z.string().optional(),
  /** Who gave it (decision 0410). */
  answered_by: z.string().optional(),
});
export type StoredQuestion = z.infer<typeof StoredQuestionSchema>;

export const TERMINAL_STATUSES: ReadonlySet<RunStatus> = new Set(['completed', 'failed', 'cancelled']);
