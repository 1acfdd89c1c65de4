import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type Notification, notificationFor } from '../../../src/server/notify/notification.js';
import { signatureOf, webhookBody } from '../../../src/server/notify/webhook-body.js';
import type { PipelineEvent } from '../../../src/shared/pipeline-event.js';

const RUN = { id: 'r1', pipeline: 'release' };
const AT = '2026-11-29T08:00:00.000Z';

const waiting: PipelineEvent = {
  kind: 'interview.start',
  node_id: 'approve',
  timestamp: AT,
  data: {
    question: 'Ship <v2> & tag it?',
    type: 'multiple_choice',
    options: [
      { key: 'Y', label: '[Y] Yes', target: 'ship' },
      { key: 'N', label: '[N] No', target: 'fix' },
    ],
  },
};

describe('what events notify', () => {
  it.each<{ why: string; event: PipelineEvent; kind: Notification['kind'] | undefined }>([
    { why: 'a gate asks', event: waiting, kind: 'gate.waiting' },
    {
      why: 'a gate is answered',
      event: {
        kind: 'interview.complete',
        node_id: 'approve',
        timestamp: AT,
        data: { key: 'Y', label: '[Y] Yes' },
      },
      kind: 'gate.answered',
    },
    {
      why: 'the run ends',
      event: {
        kind: 'pipeline.finalize',
        timestamp: AT,
        data: {
          status: 'failed',
          quality: 'failed',
          failed_nodes: ['x'],
          recovered_nodes: [],
          partial_nodes: [],
        },
      },
      kind: 'run.finished',
    },
    {
      why: 'a paused run has not ended',
      event: {
        kind: 'pipeline.finalize',
        timestamp: AT,
        data: {
          status: 'paused',
          quality: 'clean',
          failed_nodes: [],
          recovered_nodes: [],
          partial_nodes: [],
        },
      },
      kind: undefined,
    },
    {
      why: "a child pipeline's end is not the run's",
      event: {
        kind: 'pipeline.finalize',
        timestamp: AT,
        data: {
          status: 'completed',
          quality: 'clean',
          failed_nodes: [],
          recovered_nodes: [],
          partial_nodes: [],
          parent: 'm',
        },
      },
      kind: undefined,
    },
    {
      why: 'a node starting is not news',
      event: {
        kind: 'node.start',
        node_id: 'a',
        timestamp: AT,
        data: { attempt: 1, handler: 'tool', step: 1 },
      },
      kind: undefined,
    },
  ])('$why', ({ event, kind }) => {
    expect(notificationFor(RUN, event, 'https://a.example')?.kind).toBe(kind);
  });
});

describe('webhook bodies', () => {
  const notification = notificationFor(RUN, waiting, 'https://a.example/') as Notification;

  it('is the notification itself as JSON, with a link to the gate', () => {
    expect(JSON.parse(webhookBody(notification, 'json'))).toEqual({
      id: `r1:gate.waiting:approve:${AT}`,
      kind: 'gate.waiting',
      run_id: 'r1',
      pipeline: 'release',
      at: AT,
      link: 'https://a.example/#/runs/r1?node=approve',
      node: 'approve',
      question: 'Ship <v2> & tag it?',
      options: [
        { key: 'Y', label: '[Y] Yes' },
        { key: 'N', label: '[N] No' },
      ],
    });
  });

  it("is a Slack incoming-webhook message: text, the question's blocks, its options and a button to the gate", () => {
    const slack = JSON.parse(webhookBody(notification, 'slack'));
    expect(slack.text).toBe('Run r1 (release) waits at gate approve');
    expect(slack.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: '*Run r1 (release) waits at gate approve*' } },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: 'Ship &lt;v2&gt; &amp; tag it?\n• `Y` [Y] Yes\n• `N` [N] No' },
      },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Open the gate' },
            url: 'https://a.example/#/runs/r1?node=approve',
          },
        ],
      },
    ]);
  });

  it('is signed with HMAC-SHA256 of the exact body', () => {
    const body = webhookBody(notification, 'json');
    expect(signatureOf(body, 'k'.repeat(20))).toBe(
      `sha256=${createHmac('sha256', 'k'.repeat(20)).update(body).digest('hex')}`,
    );
    expect(signatureOf(`${body} `, 'k'.repeat(20))).not.toBe(signatureOf(body, 'k'.repeat(20)));
  });
});
