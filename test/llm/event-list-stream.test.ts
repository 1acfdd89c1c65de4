import { describe, expect, it } from 'vitest';
import { DirectStream } from '../../src/llm/direct-stream.js';
import { AbortError } from '../../src/llm/errors/abort-error.js';
import { EventListStream } from '../../src/llm/event-list-stream.js';
import type { StreamEvent } from '../../src/llm/types.js';

const events: StreamEvent[] = [
  { type: 'stream_start', id: 'r', model: 'm' },
  { type: 'text_start', textId: '0' },
  { type: 'text_delta', textId: '0', delta: 'a' },
  { type: 'text_delta', textId: '0', delta: 'b' },
  { type: 'text_end', textId: '0', text: 'ab' },
];

async function collect(stream: AsyncIterator<StreamEvent>, onEvent?: (n: number) => void) {
  const seen: string[] = [];
  let thrown: unknown;
  try {
    for (;;) {
      const result = await stream.next();
      if (result.done) break;
      seen.push(result.value.type);
      onEvent?.(seen.length);
    }
  } catch (error) {
    thrown = error;
  }
  return { seen, thrown };
}

/** An EventListStream under the client's DirectStream (so it is tapped), with its abort controller. */
function tappedStream() {
  const controller = new AbortController();
  const inner = new EventListStream(async () => events, controller.signal);
  const ended: string[] = [];
  const stream = new DirectStream({
    begin: async () => {},
    open: () => inner,
    map: (event) => event,
    onFailure: async (caught) => {
      throw caught;
    },
    finalError: (caught) => new AbortError(`aborted: ${(caught as Error).message}`),
    dispose: () => ended.push('dispose'),
  });
  return { controller, stream, ended };
}

describe('EventListStream', () => {
  it('yields the loaded events in order, then stays done', async () => {
    const stream = new EventListStream(async () => events);
    const { seen, thrown } = await collect(stream);
    expect(thrown).toBeUndefined();
    expect(seen).toEqual(events.map((e) => e.type));
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it('rejects the first pull when loading fails', async () => {
    const stream = new EventListStream(async () => {
      throw new Error('no scripted turn');
    });
    await expect(stream.next()).rejects.toThrow('no scripted turn');
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it('stops with the abort reason when the signal fires mid-stream (untapped: thrown)', async () => {
    const controller = new AbortController();
    const stream = new EventListStream(async () => events, controller.signal);
    const { seen, thrown } = await collect(stream, (n) => n === 2 && controller.abort(new Error('stop')));
    expect(seen).toEqual(['stream_start', 'text_start']);
    expect((thrown as Error).message).toBe('stop');
  });

  it('under the client, an abort mid-stream yields an error event and then throws it (tapped)', async () => {
    const { controller, stream, ended } = tappedStream();
    const { seen, thrown } = await collect(stream, (n) => n === 3 && controller.abort(new Error('stop')));
    expect(seen).toEqual(['stream_start', 'text_start', 'text_delta', 'error']);
    expect(thrown).toBeInstanceOf(AbortError);
    expect(ended).toEqual(['dispose']);
  });
});

describe('EventListStream.drain', () => {
  it('hands over every event in one pass; an abort from a consumer stops the next event (tapped)', async () => {
    const { controller, stream, ended } = tappedStream();
    const seen: string[] = [];
    const drained = stream.drain((event) => {
      seen.push(event.type);
      if (seen.length === 3) controller.abort(new Error('stop'));
    });
    await expect(drained).rejects.toBeInstanceOf(AbortError);
    expect(seen).toEqual(['stream_start', 'text_start', 'text_delta', 'error']);
    expect(ended).toEqual(['dispose']);
  });

  it('drains a stream nobody has pulled yet (it loads first), then stays done', async () => {
    const stream = new EventListStream(async () => events);
    const seen: string[] = [];
    await stream.drain((event) => seen.push(event.type));
    expect(seen).toEqual(events.map((e) => e.type));
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });
});

describe('EventListStream over events known at once', () => {
  it('drainNow hands every event over in the same call and reports the end with undefined', () => {
    const stream = new EventListStream(() => events);
    const seen: string[] = [];
    expect(stream.drainNow((event) => seen.push(event.type))).toBeUndefined();
    expect(seen).toEqual(events.map((e) => e.type));
  });

  it('drainNow returns a promise while the events are still loading, which settles once all are out', async () => {
    const stream = new EventListStream(async () => events);
    const seen: string[] = [];
    const pending = stream.drainNow((event) => seen.push(event.type));
    expect(pending).toBeInstanceOf(Promise);
    expect(seen).toEqual([]);
    await pending;
    expect(seen).toEqual(events.map((e) => e.type));
  });

  it('yields them through next() as a loading stream would', async () => {
    const { seen, thrown } = await collect(new EventListStream(() => events));
    expect(thrown).toBeUndefined();
    expect(seen).toEqual(events.map((e) => e.type));
  });

  it('a load that throws at once rejects the first pull and the drain, and the stream is over', async () => {
    const failing = () =>
      new EventListStream(() => {
        throw new Error('no scripted turn');
      });
    const pulled = failing();
    await expect(pulled.next()).rejects.toThrow('no scripted turn');
    expect(await pulled.next()).toEqual({ done: true, value: undefined });
    await expect(failing().drain(() => {})).rejects.toThrow('no scripted turn');
    expect(() => failing().drainNow(() => {})).toThrow('no scripted turn');
  });

  it('under the client, a drain stops at an abort from a consumer, with the error event first', async () => {
    const controller = new AbortController();
    const inner = new EventListStream(() => events, controller.signal);
    const stream = new DirectStream({
      begin: () => {},
      open: () => inner,
      map: (event) => event,
      onFailure: async (caught) => {
        throw caught;
      },
      finalError: (caught) => new AbortError(`aborted: ${(caught as Error).message}`),
      dispose: () => {},
    });
    const seen: string[] = [];
    const drained = stream.drain((event) => {
      seen.push(event.type);
      if (seen.length === 2) controller.abort(new Error('stop'));
    });
    await expect(drained).rejects.toBeInstanceOf(AbortError);
    expect(seen).toEqual(['stream_start', 'text_start', 'error']);
  });
});

describe('EventListStream.nextNow', () => {
  it('gives the first result without a promise when the events are known at once, then next() goes on', async () => {
    const stream = new EventListStream(() => events);
    expect(stream.nextNow()).toEqual({ done: false, value: events[0] });
    const { seen } = await collect(stream);
    expect(seen).toEqual(events.slice(1).map((e) => e.type));
  });

  it('loads once: while the load is pending it answers undefined and the next pull waits for the load', async () => {
    let loads = 0;
    const stream = new EventListStream(async () => {
      loads++;
      return events;
    });
    expect(stream.nextNow()).toBeUndefined();
    expect(stream.nextNow()).toBeUndefined();
    const { seen } = await collect(stream);
    expect(seen).toEqual(events.map((e) => e.type));
    expect(loads).toBe(1);
  });

  it('a drain after a pending nextNow waits for that load', async () => {
    const stream = new EventListStream(async () => events);
    expect(stream.nextNow()).toBeUndefined();
    const seen: string[] = [];
    await stream.drain((event) => seen.push(event.type));
    expect(seen).toEqual(events.map((e) => e.type));
  });

  it('throws what the first pull would reject with', () => {
    const stream = new EventListStream(() => {
      throw new Error('no scripted turn');
    });
    expect(() => stream.nextNow()).toThrow('no scripted turn');
  });

  it('under the client, a drain retries a failed first read and then hands every event over', async () => {
    let opened = 0;
    const stream = new DirectStream({
      begin: () => {},
      open: () => {
        opened++;
        return new EventListStream(() => {
          if (opened === 1) throw new Error('overloaded');
          return events;
        });
      },
      map: (event) => event,
      onFailure: async (_caught, attempt) => {
        if (attempt > 0) throw new Error('gave up');
      },
      finalError: (caught) => caught,
      dispose: () => {},
    });
    const seen: string[] = [];
    await stream.drain((event) => seen.push(event.type));
    expect(opened).toBe(2);
    expect(seen).toEqual(events.map((e) => e.type));
  });
});
