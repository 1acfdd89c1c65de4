import type { RunSummary } from '../run/read-run-summary.js';
import { printableText } from '../shared/printable-text.js';
import type { Colors } from './colors.js';

const COLUMNS = [
  'ID',
  'PIPELINE',
  'STATUS',
  'QUALITY',
  'NODE',
  'STARTED (UTC)',
  'DURATION',
  'COST',
  'BY',
  'FORKED FROM',
] as const;

/** `1.2 s`, `4 min 05 s`, `2 h 10 min`: how long a run took, to a glance's precision. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min ${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** One aligned row per run; the status coloured (on a terminal) by what it asks of the reader. */
export function formatRunsTable(runs: readonly RunSummary[], colors: Colors): string {
  const rows = runs.map((run) =>
    [
      run.id,
      run.pipeline,
      run.status,
      run.quality ?? '',
      run.current_node ?? '',
      run.started_at.slice(0, 19).replace('T', ' '),
      formatDuration(run.duration_ms),
      run.cost_usd === undefined ? '' : `$${run.cost_usd.toFixed(4)}`,
      run.started_by ?? '',
      run.forked_from ? `${run.forked_from.run_id} @ ${run.forked_from.node}` : '',
    ].map(printableText),
  );
  const widths = COLUMNS.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: readonly string[], paint?: (status: string) => string): string =>
    cells
      .map((cell, i) => {
        const padded = i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0);
        return i === 2 && paint ? paint(padded) : padded;
      })
      .join('  ')
      .trimEnd();
  const paintStatus = (status: string) => (padded: string) => {
    if (status === 'failed') return colors.red(padded);
    if (status === 'waiting' || status === 'interrupted' || status === 'paused') return colors.yellow(padded);
    return status === 'completed' ? colors.green(padded) : padded;
  };
  return `${[line(COLUMNS), ...rows.map((row) => line(row, paintStatus(row[2] ?? '')))].join('\n')}\n`;
}
