import type { PipelineEvent, PipelineEventOf } from '../shared/pipeline-event.js';

/** One line per webhook the run's notifications never delivered (`notification.failed`, decision 0520). */
export function undeliveredNotifications(events: readonly PipelineEvent[]): string[] {
  return events
    .filter((e): e is PipelineEventOf<'notification.failed'> => e.kind === 'notification.failed')
    .map(
      ({ data }) =>
        `The ${data.notification} notification to ${data.receiver} was not delivered after ${data.attempts} attempts: ${data.error}`,
    );
}
