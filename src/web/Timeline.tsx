import { formatDuration } from './format.js';
import type { NodeVisit } from './run-timeline.js';

/**
 * Node visits on one time axis: each bar starts when the node started and is as long as it ran
 * (a running one grows to now); retries and waits for a person are marked.
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
  const end = Math.max(...visits.map((v) => (v.endedAt ? Date.parse(v.endedAt) : now)), start + 1);
  const span = end - start;
  return (
    <ol className="timeline" id="timeline">
      {visits.map((v) => {
        const from = Date.parse(v.startedAt) - start;
        const length = (v.endedAt ? Date.parse(v.endedAt) : now) - Date.parse(v.startedAt);
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
                  ref={(el) => {
                    // Set through the DOM: the page's style policy allows no inline style attributes.
                    if (!el) return;
                    el.style.left = `${(from / span) * 100}%`;
                    el.style.width = `max(3px, ${(Math.max(length, 0) / span) * 100}%)`;
                  }}
                />
              </span>
              <span className="timeline-meta small">
                {formatDuration(
                  v.durationMs ?? (v.status === 'running' ? now - Date.parse(v.startedAt) : undefined),
                )}
                {v.retries > 0 ? ` · ${v.retries} ${v.retries === 1 ? 'retry' : 'retries'}` : ''}
                {v.waitedForPerson ? ' · gate' : ''}
                {v.status !== 'running' && v.status !== 'success' ? ` · ${v.status}` : ''}
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
