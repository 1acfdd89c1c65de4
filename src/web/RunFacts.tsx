import { Fragment } from 'react';
import type { RunInfo } from './api-types.js';
import { formatCost, formatDuration, formatStarted, runDurationMs } from './format.js';

/** When it started and by whom, how long it took, what it cost, where it is, how it ended. */
export function RunFacts({ id, run, now }: { id: string; run: RunInfo | undefined; now: number }) {
  const who: [string, string | undefined][] = [
    ['Started by', run?.started_by],
    ['Resumed by', run?.resumed_by],
    ['Cancelled by', run?.cancelled_by],
    ['Forked by', run?.forked_by],
  ];
  return (
    <>
      <dl className="facts inline" id="run-facts">
        <dt>Run</dt>
        <dd className="mono">{id}</dd>
        <dt>Started</dt>
        <dd>{formatStarted(run?.started_at ?? run?.created_at, now)}</dd>
        {who.map(([label, by]) =>
          by ? (
            <Fragment key={label}>
              <dt>{label}</dt>
              <dd className="by">{by}</dd>
            </Fragment>
          ) : null,
        )}
        <dt>Duration</dt>
        <dd>{run ? formatDuration(runDurationMs(run, now)) : '—'}</dd>
        <dt>Cost</dt>
        <dd id="run-cost">{formatCost(run?.cost_usd)}</dd>
        <dt>Node</dt>
        <dd className="mono">{run?.current_node ?? '—'}</dd>
        {run?.quality && (
          <>
            <dt>Quality</dt>
            <dd>{run.quality}</dd>
          </>
        )}
        {run?.dry_run && (
          <>
            <dt>Mode</dt>
            <dd>dry run</dd>
          </>
        )}
      </dl>
      {run?.failure && <p className="error">{run.failure.reason}</p>}
    </>
  );
}
