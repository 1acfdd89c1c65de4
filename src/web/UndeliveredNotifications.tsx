import type { PipelineEvent } from '../shared/pipeline-event.js';
import { undeliveredNotifications } from './undelivered-notifications.js';

/** The webhooks this run's notifications never delivered: a person expecting one learns why it did not come. */
export function UndeliveredNotifications({ events }: { events: readonly PipelineEvent[] }) {
  const lines = undeliveredNotifications(events);
  if (lines.length === 0) return null;
  return (
    <ul className="notices" id="undelivered-notifications">
      {lines.map((line, i) => (
        // The same notification may fail to two receivers: the position tells the lines apart.
        // biome-ignore lint/suspicious/noArrayIndexKey: lines are appended, never reordered
        <li key={i} className="muted small">
          {line}
        </li>
      ))}
    </ul>
  );
}
