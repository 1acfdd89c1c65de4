import { describe, expect, it } from 'vitest';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';
import { undeliveredNotifications } from '../../src/web/undelivered-notifications.js';

const at = '2026-01-01T00:00:00.000Z';

describe("the run page's undelivered notifications", () => {
  it('says each notification.failed event, and nothing of the other events', () => {
    const events: PipelineEvent[] = [
      {
        kind: 'pipeline.finalize',
        timestamp: at,
        data: {
          status: 'completed',
          quality: 'clean',
          failed_nodes: [],
          recovered_nodes: [],
          partial_nodes: [],
        },
      },
      {
        kind: 'notification.failed',
        timestamp: at,
        data: {
          notification: 'run.finished',
          delivery: 'r:run.finished:t#0',
          receiver: 'https://hooks.example',
          attempts: 6,
          error: 'https://hooks.example answered 500',
        },
      },
    ];
    expect(undeliveredNotifications(events)).toEqual([
      'The run.finished notification to https://hooks.example was not delivered after 6 attempts: https://hooks.example answered 500',
    ]);
    expect(undeliveredNotifications(events.slice(0, 1))).toEqual([]);
  });
});
