import { createHmac } from 'node:crypto';
import type { Notification } from './notification.js';

export type NotifyFormat = 'json' | 'slack';

const HEADLINES: Record<Notification['kind'], (n: Notification) => string> = {
  'gate.waiting': (n) => `Run ${n.run_id} (${n.pipeline}) waits at gate ${n.node}`,
  'gate.answered': (n) =>
    `Gate ${n.node} of run ${n.run_id} (${n.pipeline}) was answered: ${n.answer ?? '—'}`,
  'run.finished': (n) => `Run ${n.run_id} (${n.pipeline}) ${n.status} (${n.quality})`,
};

/**
 * What a webhook receives: the notification as JSON, or a Slack incoming-webhook message (`text` for
 * notifications and clients without blocks; blocks with the question, its options and a link).
 */
export function webhookBody(notification: Notification, format: NotifyFormat): string {
  if (format === 'json') return JSON.stringify(notification);
  const headline = HEADLINES[notification.kind](notification);
  const blocks: unknown[] = [
    { type: 'section', text: { type: 'mrkdwn', text: `*${escapeSlack(headline)}*` } },
  ];
  if (notification.question !== undefined) {
    const options = (notification.options ?? []).map(
      (o) => `• \`${escapeSlack(o.key)}\` ${escapeSlack(o.label)}`,
    );
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: [escapeSlack(notification.question), ...options].join('\n') },
    });
  }
  blocks.push({
    type: 'actions',
    elements: [
      {
        type: 'button',
        text: {
          type: 'plain_text',
          text: notification.kind === 'gate.waiting' ? 'Open the gate' : 'Open the run',
        },
        url: notification.link,
      },
    ],
  });
  return JSON.stringify({ text: headline, blocks });
}

/** Slack's mrkdwn reserves &, < and > (its escaping rule); the rest is shown as written. */
function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `x-attractor-signature`: `sha256=` and the HMAC-SHA256 of the exact body bytes with the shared secret, hex. */
export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
