import { formatDuration, formatStarted } from './format.js';
import type { NodeVisit } from './run-timeline.js';

/** How long a visit has taken: to its end, to when its gate began to wait, or to now while it runs. */
function visitEnd(v: NodeVisit, now: number): number {
  return Date.parse(v.endedAt ?? v.waitingSince ?? new Date(now).toISOString());
}

function meta(v: NodeVisit, now: number): string {
  if (v.status === 'waiting' && v.waitingSince) return `waiting since ${formatStarted(v.waitingSince, now)}`;
  return [
    formatDuration(v.durationMs ?? visitEnd(v, now) - Date.parse(v.startedAt)),
    v.retries > 0 ? `${v.retries} ${v.retries === 1 ? 'retry' : 'retries'}` : '',
    v.waitedForPerson ? (v.answeredBy ? `answered by ${v.answeredBy}` : 'gate') : '',
    v.status !== 'running' && v.status !== 'success' ? v.status : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * Node visits on one time axis: each bar starts when the node started and is as long as it ran; only
 * a running one grows (to now). A stopped run's nodes stopped with it; a gate says since when it waits.
 */
export function Timeline({
  visits,
  now,
  onSelect,
}: {
  visits: readonly NodeVisit[];
  now: number;
  onSelect: (node: string) => void;
}) {
  if (visits.length === 0) return <p className="muted">No node has started yet.</p>;
  const start = Date.parse(visits[0]?.startedAt ?? '');
  const end = Math.max(...visits.map((v) => visitEnd(v, now)), start + 1);
  const span = end - start;
  return (
    <ol className="timeline" id="timeline">
      {visits.map((v) => {
        const from = Date.parse(v.startedAt) - start;
        const length = visitEnd(v, now) - Date.parse(v.startedAt);
        return (
          <li key={`${v.node}#${v.visit}`} data-node={v.node} data-status={v.status}>
            <button type="button" className="timeline-row" onClick={() => onSelect(v.node)}>
              <span className="timeline-name mono">
                {v.node}
                {v.visit > 1 ? ` #${v.visit}` : ''}
              </span>
              <span className="timeline-track">
                <span
                  className={`timeline-bar status-${v.status}`}
                  data-length-ms={Math.max(length, 0)}
                  ref={(el) => {
                    // Set through the DOM: the page's style policy allows no inline style attributes.
                    if (!el) return;
                    el.style.left = `${(from / span) * 100}%`;
                    el.style.width = `max(3px, ${(Math.max(length, 0) / span) * 100}%)`;
                  }}
                />
              </span>
              <span className="timeline-meta small">{meta(v, now)}</span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
