/** `850 ms`, `12.3 s`, `4 m 05 s`, `2 h 03 m`. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} m ${String(Math.floor(s % 60)).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} m`;
}

/** `$0.00` for nothing spent, `<$0.01` for a fraction of a cent, else dollars and cents. */
export function formatCost(usd: number | undefined): string {
  if (!usd) return '$0.00';
  if (usd < 0.01) return '<$0.01';
  return `$${usd.toFixed(2)}`;
}

/** A time of day for today, a date and time otherwise (the reader's locale). */
export function formatStarted(iso: string | undefined, now: number = Date.now()): string {
  if (!iso) return '—';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '—';
  const sameDay = new Date(now).toDateString() === at.toDateString();
  return sameDay
    ? at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' })
    : at.toLocaleString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

const MOVING = new Set(['running', 'waiting', 'queued']);

/**
 * How long a run has taken: to its end, to now while it moves, or to its last change when it stopped
 * without ending (paused, interrupted, cancelled before finalizing).
 */
export function runDurationMs(
  run: { status: string; started_at?: string; ended_at?: string; updated_at?: string },
  now: number = Date.now(),
): number | undefined {
  if (!run.started_at) return undefined;
  const end = run.ended_at ?? (MOVING.has(run.status) ? undefined : run.updated_at);
  return (end ? Date.parse(end) : now) - Date.parse(run.started_at);
}

/** The words a status is shown with; `waiting` is for a person. */
export const STATUS_LABEL: Readonly<Record<string, string>> = {
  waiting: 'waiting for you',
  running: 'running',
  queued: 'queued',
  paused: 'paused',
  interrupted: 'interrupted',
  failed: 'failed',
  completed: 'completed',
  cancelled: 'cancelled',
};

/** The words a node's status is shown and named with (not its colour alone). */
export const NODE_STATUS_LABEL: Readonly<Record<string, string>> = {
  pending: 'not reached',
  running: 'running',
  waiting: 'waiting for you',
  success: 'succeeded',
  partial_success: 'partly succeeded',
  retry: 'retrying',
  fail: 'failed',
  skipped: 'skipped',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};
