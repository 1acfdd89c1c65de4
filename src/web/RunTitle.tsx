import type { RunInfo } from './api-types.js';
import { runHref } from './use-hash-route.js';

/** A run page's heading: the way back to the list, the pipeline's name and goal, and the run it forked. */
export function RunTitle({ id, run }: { id: string; run: RunInfo | undefined }) {
  return (
    <div className="page-title">
      <a href="#/" className="muted small">
        ← Runs
      </a>
      <h1 id="title">{run?.name ?? id}</h1>
      {run?.goal && <p className="muted">{run.goal}</p>}
      {run?.forked_from && (
        <p className="muted small" id="forked-from">
          Forked from <a href={runHref(run.forked_from.run_id)}>{run.forked_from.run_id}</a> at{' '}
          <span className="mono">{run.forked_from.node}</span>: the nodes before it are that run's.
        </p>
      )}
    </div>
  );
}
