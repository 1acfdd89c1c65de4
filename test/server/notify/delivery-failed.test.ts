import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliveryFailedEvent, reportDeliveryFailed } from '../../../src/server/notify/delivery-failed.js';

const SECRET_PATH = '/services/T000/B000/XXXXsecretXXXX';
const failed = {
  delivery: {
    id: 'n1#0',
    url: `https://hooks.slack.example${SECRET_PATH}`,
    body: '{}',
    signature: 'sha256=00',
    run_id: 'r1',
    notification: 'gate.waiting',
  },
  attempts: 6,
  error: `https://hooks.slack.example${SECRET_PATH} answered 500`,
};

afterEach(() => vi.restoreAllMocks());

describe('a delivery given up', () => {
  it('is one event naming the receiver by its origin only', () => {
    const event = deliveryFailedEvent(failed, new Date(0));
    expect(event.data).toMatchObject({ receiver: 'https://hooks.slack.example', attempts: 6 });
    expect(JSON.stringify(event)).not.toContain('secret');
  });

  it('is said on stderr without the webhook URL path (a Slack webhook path is its secret)', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const recorded: unknown[] = [];
    await reportDeliveryFailed(failed, async (_run, event) => {
      recorded.push(event);
    });
    expect(recorded).toHaveLength(1);
    expect(written.join('')).toContain('to https://hooks.slack.example was not delivered after 6 attempts');
    expect(written.join('')).not.toContain('secret');
  });
});
