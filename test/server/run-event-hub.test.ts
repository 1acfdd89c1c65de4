import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunEventHub } from '../../src/server/run-event-hub.js';
import { sseResponse } from '../../src/server/sse-response.js';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const event = (n: number): PipelineEvent => ({
  kind: 'node.start',
  node_id: `n${n}`,
  data: { attempt: 1, handler: 'codergen', step: n },
  timestamp: 't',
});

function runDirWith(count: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-hub-'));
  dirs.push(dir);
  const lines = Array.from({ length: count }, (_, i) => `${JSON.stringify(event(i + 1))}\n`).join('');
  fs.writeFileSync(path.join(dir, 'events.jsonl'), `${lines}{"torn`);
  return dir;
}

function collect(hub: RunEventHub, afterId: number) {
  const seen: number[] = [];
  let done: string | undefined;
  const unsubscribe = hub.subscribe(afterId, {
    event: (id) => {
      seen.push(id);
      return true;
    },
    done: (status) => {
      done = status;
    },
  });
  return { seen, done: () => done, unsubscribe };
}

describe('RunEventHub', () => {
  it('numbers events after those already in events.jsonl (a resumed run appends) and skips a torn line', () => {
    const hub = new RunEventHub(runDirWith(3));
    expect(hub.eventCount).toBe(3);
    hub.publish(event(4));
    expect(hub.eventCount).toBe(4);
  });

  it('replays from the file, then the ring, then follows live, in order and without gaps', () => {
    const hub = new RunEventHub(runDirWith(3));
    hub.publish(event(4));
    const late = collect(hub, 1);
    hub.publish(event(5));
    expect(late.seen).toEqual([2, 3, 4, 5]);
    const fromStart = collect(hub, 0);
    expect(fromStart.seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('tells subscribers, and anyone who joins later, that the run ended', () => {
    const hub = new RunEventHub(runDirWith(2));
    const early = collect(hub, 0);
    hub.finish('completed');
    expect(early.done()).toBe('completed');
    const late = collect(hub, 0);
    expect(late.seen).toEqual([1, 2]);
    expect(late.done()).toBe('completed');
    expect(hub.subscriberCount).toBe(0);
  });
});

describe('sseResponse', () => {
  it('drops a subscriber that stops reading instead of slowing the run, telling it where to reconnect', async () => {
    const hub = new RunEventHub(undefined);
    const controller = new AbortController();
    const response = sseResponse(hub, {
      afterId: 0,
      heartbeatMs: 60_000,
      maxQueuedBytes: 600,
      dropGraceMs: 60_000,
      signal: controller.signal,
    });
    // Nobody reads the body while 20 events are published: publishing must not block.
    for (let i = 1; i <= 20; i++) hub.publish(event(i));
    expect(hub.subscriberCount).toBe(0);
    const text = await response.text();
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    // A short prefix was queued (the bound counts every unread byte), then the drop notice.
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.length).toBeLessThanOrEqual(5);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(text).toContain('"kind":"stream.dropped"');
    expect(text).toContain(`"last_event_id":${ids.at(-1)}`);
  });

  it('writes id and data lines per event and the terminal done message', async () => {
    const hub = new RunEventHub(undefined);
    const response = sseResponse(hub, {
      afterId: 0,
      heartbeatMs: 60_000,
      maxQueuedBytes: 1_000_000,
      dropGraceMs: 60_000,
      signal: new AbortController().signal,
    });
    hub.publish(event(1));
    hub.finish('failed');
    const text = await response.text();
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(text).toContain(`id: 1\ndata: ${JSON.stringify(event(1))}\n\n`);
    expect(text).toContain('data: {"kind":"done","status":"failed"}\n\n');
  });
  it('ends the stream at the first heartbeat after the caller may no longer read the run', async () => {
    const hub = new RunEventHub(undefined);
    let allowed = true;
    const response = sseResponse(hub, {
      afterId: 0,
      heartbeatMs: 20,
      maxQueuedBytes: 1_000_000,
      dropGraceMs: 60_000,
      signal: new AbortController().signal,
      stillAllowed: async () => allowed,
    });
    hub.publish(event(1));
    setTimeout(() => {
      allowed = false;
    }, 70);
    // The run never ends: only the check closes the stream.
    const text = await response.text();
    expect(text).toContain('id: 1\n');
    expect(text).toContain(': heartbeat');
    expect(text).not.toContain('"kind":"done"');
    expect(hub.subscriberCount).toBe(0);
  });
});
