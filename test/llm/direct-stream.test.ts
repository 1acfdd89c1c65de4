import { describe, expect, it } from 'vitest';
import { DirectStream, type DirectStreamHooks } from '../../src/llm/direct-stream.js';
import { ServerError } from '../../src/llm/errors/server-error.js';
import { MappedStream } from '../../src/llm/mapped-stream.js';
import type { StreamEvent } from '../../src/llm/types.js';

/** A raw source of text chunks that fails after `failAfter` chunks when given. */
async function* raw(chunks: string[], failAfter?: number): AsyncGenerator<string> {
  for (let i = 0; i < chunks.length; i++) {
    if (i === failAfter) throw new Error('socket hang up');
    yield chunks[i] as string;
  }
}

/** An adapter-like mapped stream: 'start' pushes stream_start + text_start, 'end' finishes the stream. */
function mapped(chunks: string[], failAfter?: number, tappable = true) {
  const stream = new MappedStream<string, StreamEvent>(async () => raw(chunks, failAfter), {
    map(chunk, push) {
      if (chunk === 'start') {
        push({ type: 'stream_start', id: 'r1', model: 'm' });
        push({ type: 'text_start', textId: '0' });
        return false;
      }
      if (chunk === 'end') {
        push({ type: 'text_end', textId: '0', text: 'ab' });
        return true;
      }
      push({ type: 'text_delta', textId: '0', delta: chunk });
      return false;
    },
    endedEarly() {
      throw new Error('ended early');
    },
    mapError: (error) => new ServerError(`mapped: ${(error as Error).message}`, { provider: 'fake' }),
  });
  if (tappable) return stream;
  // The same stream seen through a plain iterator, so the client cannot tap it.
  return { next: () => stream.next(), return: () => stream.return() } as AsyncIterator<StreamEvent>;
}

function hooks(inner: AsyncIterator<StreamEvent>, log: string[]): DirectStreamHooks {
  return {
    begin: async () => {},
    open: () => inner,
    map: (event) => {
      log.push(event.type);
      return event.type === 'text_delta' ? { ...event, delta: event.delta.toUpperCase() } : event;
    },
    onFailure: async (caught) => {
      throw caught;
    },
    finalError: (caught) => caught,
    dispose: () => log.push('dispose'),
  };
}

async function drain(stream: AsyncIterator<StreamEvent>) {
  const events: StreamEvent[] = [];
  let thrown: unknown;
  try {
    for (;;) {
      const result = await stream.next();
      if (result.done) break;
      events.push(result.value);
    }
  } catch (error) {
    thrown = error;
  }
  return { events, thrown };
}

describe('DirectStream over a tappable adapter stream', () => {
  it.each([
    ['tapped', true],
    ['not tapped', false],
  ])('maps every event exactly once, in order, and disposes once (%s)', async (_name, tappable) => {
    const log: string[] = [];
    const stream = new DirectStream(hooks(mapped(['start', 'a', 'b', 'end'], undefined, tappable), log));
    const { events, thrown } = await drain(stream);
    expect(thrown).toBeUndefined();
    expect(events.map((e) => (e.type === 'text_delta' ? e.delta : e.type))).toEqual([
      'stream_start',
      'text_start',
      'A',
      'B',
      'text_end',
    ]);
    expect(log).toEqual(['stream_start', 'text_start', 'text_delta', 'text_delta', 'text_end', 'dispose']);
  });

  it.each([
    ['tapped', true],
    ['not tapped', false],
  ])(
    'a failure after the first event yields an error event, then throws the same error (%s)',
    async (_n, tappable) => {
      const log: string[] = [];
      const stream = new DirectStream(hooks(mapped(['start', 'a', 'b'], 2, tappable), log));
      const { events, thrown } = await drain(stream);
      expect(thrown).toBeInstanceOf(ServerError);
      expect((thrown as Error).message).toBe('mapped: socket hang up');
      const last = events.at(-1);
      expect(last?.type).toBe('error');
      expect(last?.type === 'error' && last.error).toBe(thrown);
      expect(log.filter((entry) => entry === 'dispose')).toHaveLength(1);
      // Once failed, the stream stays finished.
      expect(await stream.next()).toEqual({ done: true, value: undefined });
    },
  );
});

describe('DirectStream retries', () => {
  it('a retry whose re-open throws ends like any failure: an error event, the throw, one dispose', async () => {
    const log: string[] = [];
    let opens = 0;
    const stream = new DirectStream({
      begin: async () => {},
      open: () => {
        opens++;
        if (opens === 1) return mapped(['start'], 0);
        throw new ServerError('cannot reconnect', { provider: 'fake' });
      },
      map: (event) => event,
      onFailure: async () => {}, // retry
      finalError: (caught) => caught,
      dispose: () => log.push('dispose'),
    });
    const { events, thrown } = await drain(stream);
    expect(opens).toBe(2);
    expect((thrown as Error).message).toBe('cannot reconnect');
    expect(events.map((e) => e.type)).toEqual(['error']);
    expect(log).toEqual(['dispose']);
  });
});

/** The same reading as `drain` above, through DirectStream.drain (events handed over, no promise each). */
async function drainAtOnce(stream: DirectStream, onEvent?: (event: StreamEvent) => void) {
  const events: StreamEvent[] = [];
  let thrown: unknown;
  try {
    await stream.drain((event) => {
      events.push(event);
      onEvent?.(event);
    });
  } catch (error) {
    thrown = error;
  }
  return { events, thrown };
}

describe('DirectStream.drain', () => {
  it.each([
    ['tapped', true],
    ['not tapped', false],
  ])('hands over the same events, mapped once, as iterating does (%s)', async (_name, tappable) => {
    const iterated: string[] = [];
    const drained: string[] = [];
    const byIteration = await drain(
      new DirectStream(hooks(mapped(['start', 'a', 'b', 'end'], undefined, tappable), iterated)),
    );
    const byDrain = await drainAtOnce(
      new DirectStream(hooks(mapped(['start', 'a', 'b', 'end'], undefined, tappable), drained)),
    );
    expect(byDrain.thrown).toBeUndefined();
    expect(byDrain.events).toEqual(byIteration.events);
    expect(drained).toEqual(iterated);
  });

  it.each([
    ['tapped', true],
    ['not tapped', false],
  ])(
    'a failure mid-stream: the error event, then the rejection with that error, one dispose (%s)',
    async (_n, tappable) => {
      const log: string[] = [];
      const stream = new DirectStream(hooks(mapped(['start', 'a', 'b'], 2, tappable), log));
      const { events, thrown } = await drainAtOnce(stream);
      expect(thrown).toBeInstanceOf(ServerError);
      const last = events.at(-1);
      expect(last?.type === 'error' && last.error).toBe(thrown);
      expect(events.map((e) => e.type)).toEqual(['stream_start', 'text_start', 'text_delta', 'error']);
      expect(log.filter((entry) => entry === 'dispose')).toHaveLength(1);
    },
  );

  it('a consumer that throws closes the stream (disposed once) and its error rejects', async () => {
    const log: string[] = [];
    const stream = new DirectStream(hooks(mapped(['start', 'a', 'b', 'end']), log));
    const { events, thrown } = await drainAtOnce(stream, (event) => {
      if (event.type === 'text_delta') throw new Error('consumer bug');
    });
    expect((thrown as Error).message).toBe('consumer bug');
    expect(events.map((e) => e.type)).toEqual(['stream_start', 'text_start', 'text_delta']);
    expect(log.filter((entry) => entry === 'dispose')).toHaveLength(1);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });
});
