import { useEffect, useState } from 'react';
import { api } from './api.js';
import type { RunInfo } from './api-types.js';
import { formatCost, formatDuration, formatStarted, runDurationMs } from './format.js';
import { StatusBadge } from './StatusBadge.js';
import { runHref } from './use-hash-route.js';
import { usePoll } from './use-poll.js';

const FILTERS: readonly { status: string; label: string }[] = [
  { status: '', label: 'All' },
  { status: 'waiting', label: 'Waiting for you' },
  { status: 'running', label: 'Running' },
  { status: 'queued', label: 'Queued' },
  { status: 'paused', label: 'Paused' },
  { status: 'interrupted', label: 'Interrupted' },
  { status: 'failed', label: 'Failed' },
  { status: 'completed', label: 'Completed' },
  { status: 'cancelled', label: 'Cancelled' },
];

/** Ticks once a second so running durations move between polls. */
function useNow(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * One run: its pipeline and id (and what it was forked from), status, quality, where it is, when and
 * by whom it started, how long it took, what it cost. Each cell names its column, which a narrow
 * screen shows beside it (the table's header is hidden there).
 */
function RunRow({ run, now }: { run: RunInfo; now: number }) {
  return (
    <tr className="run" data-id={run.id} data-status={run.status}>
      <td data-label="Run">
        <a href={runHref(run.id)} className="run-link">
          {run.name}
        </a>
        <div className="muted small mono run-id">{run.id}</div>
        {run.goal && <div className="muted small">{run.goal}</div>}
        {(run.dry_run || run.scenario) && (
          <div className="muted small">{run.dry_run ? 'dry run' : 'scenario'}</div>
        )}
        {run.forked_from && (
          <div className="muted small forked">
            forked from <a href={runHref(run.forked_from.run_id)}>{run.forked_from.run_id}</a> at{' '}
            <span className="mono">{run.forked_from.node}</span>
          </div>
        )}
      </td>
      <td data-label="Status">
        <StatusBadge status={run.status} />
      </td>
      <td data-label="Quality" className="quality">
        {run.quality ?? '—'}
      </td>
      <td data-label="Current node" className="mono">
        {run.current_node ?? '—'}
      </td>
      <td data-label="Started">
        {formatStarted(run.started_at ?? run.created_at, now)}
        {run.started_by && <div className="muted small started-by">by {run.started_by}</div>}
      </td>
      <td data-label="Duration">{formatDuration(runDurationMs(run, now))}</td>
      <td data-label="Cost" className="num">
        {formatCost(run.cost_usd)}
      </td>
    </tr>
  );
}

/** Every run of the server, newest first, filtered by status, refreshed every two seconds. */
export function RunList() {
  const [filter, setFilter] = useState('');
  const now = useNow();
  const { data, error } = usePoll(
    () => api<{ pipelines: RunInfo[] }>(`/pipelines?limit=100${filter ? `&status=${filter}` : ''}`),
    2000,
    [filter],
  );
  const runs = data?.pipelines ?? [];
  return (
    <main className="page">
      <div className="page-head">
        <h1>Runs</h1>
        <a className="button primary" href="#/new">
          New run
        </a>
      </div>
      <fieldset className="filters">
        <legend className="sr-only">Show runs that are</legend>
        {FILTERS.map((f) => (
          <button
            key={f.status}
            type="button"
            className="chip"
            aria-pressed={filter === f.status}
            onClick={() => setFilter(f.status)}
          >
            {f.label}
          </button>
        ))}
      </fieldset>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <table className="runs" id="runs">
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Status</th>
            <th scope="col">Quality</th>
            <th scope="col">Current node</th>
            <th scope="col">Started</th>
            <th scope="col">Duration</th>
            <th scope="col" className="num">
              Cost
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <RunRow key={run.id} run={run} now={now} />
          ))}
        </tbody>
      </table>
      {data && runs.length === 0 && (
        <p className="empty">
          {filter ? 'No runs with this status.' : 'No runs yet. '}
          {!filter && <a href="#/new">Start one.</a>}
        </p>
      )}
    </main>
  );
}
