import { afterEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';
import { closeServers, GATE_PIPELINE, testServer, waitFor } from '../server-fixtures.js';

afterEach(closeServers);

const SECRET = 'server-notification-secret-0123';

describe('attractor serve --notify', () => {
  it('tells a receiver a gate waits, then that it was answered and by whom, then that the run ended', async () => {
    const hook = await startWebhookReceiver(SECRET);
    try {
      const server = await testServer(
        {},
        {
          notify: {
            urls: [hook.url],
            secret: SECRET,
            format: 'json',
            publicUrl: 'https://attractor.example',
          },
        },
      );
      const { body } = await server.json('POST', '/pipelines', { dot_source: GATE_PIPELINE, dry_run: true });
      const waiting = await waitFor(
        () => hook.received.find((r) => r.json['kind'] === 'gate.waiting'),
        'gate.waiting',
      );
      expect(waiting.signed).toBe(true);
      expect(waiting.json).toMatchObject({
        run_id: body.id,
        pipeline: 'gate',
        node: 'review',
        question: 'Ship it?',
        options: [
          { key: 'S', label: '[S] Ship' },
          { key: 'R', label: '[R] Rework' },
        ],
        link: `https://attractor.example/#/runs/${body.id}?node=review`,
      });
      // The link opens the page; following it twice answers nothing.
      for (let i = 0; i < 2; i++) {
        const page = await fetch(`${server.url}/`);
        expect(page.status).toBe(200);
      }
      const [question] = (await server.json('GET', `/pipelines/${body.id}/questions`)).body;
      expect(question.stage).toBe('review');
      await server.json('POST', `/pipelines/${body.id}/questions/${question.id}/answer`, { answer: 'S' });
      const again = await server.json('POST', `/pipelines/${body.id}/questions/${question.id}/answer`, {
        answer: 'R',
      });
      expect(again.status).toBe(409);
      const finished = await waitFor(
        () => hook.received.find((r) => r.json['kind'] === 'run.finished'),
        'run.finished',
      );
      expect(finished.json).toMatchObject({ status: 'completed', quality: 'clean' });
      const kinds = hook.received.map((r) => r.json['kind']);
      expect(kinds).toEqual(['gate.waiting', 'gate.answered', 'run.finished']);
      expect(hook.received[1]?.json).toMatchObject({
        node: 'review',
        answer: '[S] Ship',
        answered_by: 'anonymous',
      });
      expect(hook.received.every((r) => r.signed)).toBe(true);
      expect(new Set(hook.received.map((r) => r.delivery)).size).toBe(3);
    } finally {
      await hook.close();
    }
  });

  it('refuses --notify with --store: the workers send the notifications of the runs they execute', async () => {
    await expect(
      testServer(
        { store: 'postgres://nobody@127.0.0.1:1/none' },
        { notify: { urls: ['http://127.0.0.1:9/hook'], secret: SECRET, format: 'json' } },
      ),
    ).rejects.toThrow(/give --notify .* to `attractor worker`/);
  });
});
