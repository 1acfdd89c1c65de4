import * as z from 'zod';

/**
 * Where a run stands, as the server reports it. `interrupted`: its server died while it ran. `waiting`:
 * checkpointed at a gate with no worker holding it (PostgreSQL store), or running at an open gate.
 * Here, not in server/, because the web view reads it too.
 */
export const RunStatusSchema = z.enum([
  'queued',
  'running',
  'completed',
  'failed',
  'cancelled',
  'paused',
  'interrupted',
  'waiting',
]);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/**
 * The public JSON of one run (`GET /pipelines/{id}`, list items; docs/guides/server.md). The server's
 * `runView` is typed by it and the web view reads it, so the two cannot drift apart.
 */
export interface RunViewJson {
  id: string;
  name: string;
  goal: string;
  status: RunStatus;
  event_count: number;
  created_at: string;
  updated_at: string;
  dry_run: boolean;
  scenario?: true;
  /** The top-level node entered last (the node a finished run stopped at). */
  current_node?: string;
  started_at?: string;
  ended_at?: string;
  /** The run and node it was forked from, once it started. */
  forked_from?: { run_id: string; node: string };
  /** It wrote a checkpoint: what resuming a failed or cancelled run and forking need (`runActionRefusal`). */
  checkpointed: boolean;
  cost_usd: number;
  tokens: { input: number; output: number };
  /** Where `attractor attach` follows the run and answers its gates. */
  run_dir?: string;
  quality?: 'clean' | 'degraded' | 'failed';
  stopped_at?: string;
  /** Only once the run ended (completed, failed or cancelled). */
  outcome?: 'success' | 'fail';
  notes?: string;
  failure?: { node?: string; reason: string; code?: string };
  /**
   * Who started (submitted) the run, forked it, last resumed it, cancelled it (decision 0410): `token`
   * for the server's single `--token`, `anonymous` without one, a user name for the CLI.
   */
  started_by?: string;
  forked_by?: string;
  resumed_by?: string;
  cancelled_by?: string;
}
