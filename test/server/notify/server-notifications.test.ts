import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pipelineEventLineSchema } from '../../../src/shared/events/event-line-schema.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';
import {
  closeServers,
  GATE_PIPELINE,
  readSse,
  type TestServer,
  testServer,
  waitFor,
} from '../server-fixtures.js';

afterEach(closeServers);

const SECRET = 'server-notification-secret-0123';
const FAST = { maxAttempts: 2, schedule: { initialMs: 10, factor: 2, maxMs: 50, jitter: false } };

/** The run's events as SSE gives them: each with its id (its line in `events.jsonl`). */
async function streamed(server: TestServer, id: string): Promise<Array<{ id: number; kind: unknown }>> {
  const messages = await readSse(`${server.url}/pipelines/${id}/events`);
  return messages.flatMap((m) => (m.id === undefined ? [] : [{ id: m.id, kind: m.data['kind'] }]));
}

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

  it('tells of a gate once across a restart: the drain is no ending, the resumed asking no news', async () => {
    const hook = await startWebhookReceiver(SECRET);
    try {
      const notify = { urls: [hook.url], secret: SECRET, format: 'json' as const };
      const first = await testServer({}, { notify });
      const { body: run } = await first.json('POST', '/pipelines', {
        dot_source: GATE_PIPELINE,
        dry_run: true,
      });
      await waitFor(() => hook.received[0], 'gate.waiting');
      // Stopped while its gate waits: interrupted, its question still pending.
      await first.manager.drain();
      const second = await testServer({ dataDir: first.dataDir, resumeInterrupted: true }, { notify });
      const question = await waitFor(async () => {
        const { body } = await second.json('GET', `/pipelines/${run.id}/questions`);
        const { body: view } = await second.json('GET', `/pipelines/${run.id}`);
        return view.status === 'waiting' && body.length > 0 ? body[0] : undefined;
      }, 'the resumed gate');
      await second.json('POST', `/pipelines/${run.id}/questions/${question.id}/answer`, { answer: 'S' });
      await waitFor(() => hook.received.find((r) => r.json['kind'] === 'run.finished'), 'run.finished');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(hook.received.map((r) => `${r.json['kind']} ${r.json['status'] ?? ''}`.trim())).toEqual([
        'gate.waiting',
        'gate.answered',
        'run.finished completed',
      ]);
    } finally {
      await hook.close();
    }
  });

  it("records each delivery a receiver that is down never got once in the run's log, after the run stopped", async () => {
    const down = await startWebhookReceiver(SECRET);
    await down.close();
    const server = await testServer(
      {},
      { notify: { urls: [down.url], secret: SECRET, format: 'json', policy: FAST } },
    );
    const { body: run } = await server.json('POST', '/pipelines', {
      dot_source: GATE_PIPELINE,
      dry_run: true,
    });
    const [question] = await waitFor(async () => {
      const { body } = await server.json('GET', `/pipelines/${run.id}/questions`);
      return body.length > 0 ? body : undefined;
    }, 'the question');
    // Long enough for gate.waiting to be given up: the waiting run's log is its recorder's, untouched.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const log = path.join(server.dataDir, 'runs', run.id, 'run', 'events.jsonl');
    expect(readFileSync(log, 'utf8')).not.toContain('notification.failed');
    await server.json('POST', `/pipelines/${run.id}/questions/${question.id}/answer`, { answer: 'S' });
    const events = await waitFor(async () => {
      const all = await streamed(server, run.id);
      return all.filter((e) => e.kind === 'notification.failed').length >= 3 ? all : undefined;
    }, 'three notification.failed events');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => pipelineEventLineSchema.parse(JSON.parse(line)));
    const failed = lines.filter((e) => e.kind === 'notification.failed');
    expect(failed.map((e) => e.data.notification).sort()).toEqual([
      'gate.answered',
      'gate.waiting',
      'run.finished',
    ]);
    expect(failed.every((e) => e.data.receiver === new URL(down.url).origin && e.data.attempts === 2)).toBe(
      true,
    );
    // After the run's end, numbered as the lines they are: a reader's ids still match the file.
    expect(lines.findIndex((e) => e.kind === 'pipeline.finalize')).toBe(lines.length - 4);
    expect(events.map((e) => e.id)).toEqual(lines.map((_, i) => i + 1));
    expect((await server.json('GET', `/pipelines/${run.id}`)).body.status).toBe('completed');
  });

  it('refuses --notify with --store: the workers queue and send notifications through the database', async () => {
    await expect(
      testServer(
        { store: 'postgres://nobody@127.0.0.1:1/none' },
        { notify: { urls: ['http://127.0.0.1:9/hook'], secret: SECRET, format: 'json' } },
      ),
    ).rejects.toThrow(/go through the database: give --notify .* to `attractor worker`/);
  });
});
