import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LLMClient } from '../../src/llm/client.js';
import { ServerError } from '../../src/llm/errors/server-error.js';
import { Message } from '../../src/llm/message.js';
import { AnthropicAdapter } from '../../src/llm/providers/anthropic/anthropic-adapter.js';
import { StreamAccumulator } from '../../src/llm/stream-accumulator.js';
import { ScriptedAdapter, type ScriptedTurn } from '../../src/llm/testing/scripted-adapter.js';
import type { StreamEvent } from '../../src/llm/types.js';
import {
  anthropicStreamReply,
  FAKE_ANTHROPIC_KEY,
  startFakeAnthropicServer,
} from '../helpers/fake-anthropic-server.js';
import type { ScriptedServer } from '../helpers/sse.js';

const request = { model: 'm', messages: [Message.user('Hi')] };

function scripted(turns: ConstructorParameters<typeof ScriptedAdapter>[0]['turns'], chunkSize = 3) {
  return new LLMClient({ adapters: [new ScriptedAdapter({ turns, chunkSize })] });
}

describe('StreamResult', () => {
  it('offers the final response without reading events by hand', async () => {
    const response = await scripted(['Hello, world']).stream(request).response();
    expect(response.text).toBe('Hello, world');
    expect(response.finishReason.reason).toBe('stop');
  });

  it('streams the text alone, and its deltas concatenate to response().text', async () => {
    const result = scripted(['Hello, world']).stream(request);
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe((await result.response()).text);
  });

  it('shows the partial response while the stream is read, then the final one', async () => {
    const result = scripted(['Hello, world']).stream(request);
    const seen: string[] = [];
    for await (const event of result) {
      if (event.type === 'text_delta') seen.push(result.partialResponse.text);
    }
    expect(seen[0]).toBe('Hel');
    expect(seen.at(-1)).toBe('Hello, world');
    expect(result.partialResponse.finishReason.reason).toBe('stop');
  });

  it('reads the rest after a partial read, and rejects with the stream’s error', async () => {
    const result = scripted(['Hello, world']).stream(request);
    await result.next();
    expect((await result.response()).text).toBe('Hello, world');
    const failing = new LLMClient({
      adapters: [new ScriptedAdapter({ turns: [{ error: new ServerError('down') }] })],
      retryPolicy: { maxRetries: 0 },
    });
    await expect(failing.stream(request).response()).rejects.toThrow(ServerError);
  });

  it.each([
    ['text', 'Hello, world'],
    ['a tool call', { toolCalls: [{ name: 'noop', arguments: { a: 1 } }] }],
  ] as Array<[string, ScriptedTurn]>)(
    'response(onEvent) sees exactly the events iterating sees (%s)',
    async (_name, turn) => {
      const iterated: StreamEvent[] = [];
      for await (const event of scripted([turn]).stream(request)) iterated.push(event);
      const seen: StreamEvent[] = [];
      const response = await scripted([turn])
        .stream(request)
        .response((event) => seen.push(event));
      expect(seen).toEqual(iterated);
      expect(response).toEqual((iterated.at(-1) as Extract<StreamEvent, { type: 'finish' }>).response);
    },
  );

  it('response(onEvent) hands over the error event, then rejects with that error', async () => {
    const failing = new LLMClient({
      adapters: [new ScriptedAdapter({ turns: [{ error: new ServerError('down') }] })],
      retryPolicy: { maxRetries: 0 },
    });
    const seen: string[] = [];
    await expect(failing.stream(request).response((event) => seen.push(event.type))).rejects.toThrow(
      ServerError,
    );
    expect(seen).toEqual(['error']);
  });

  it('response(onEvent) rejects with what onEvent throws, and the stream is over', async () => {
    const result = scripted(['Hello, world']).stream(request);
    await expect(
      result.response((event) => {
        if (event.type === 'text_delta') throw new Error('consumer bug');
      }),
    ).rejects.toThrow('consumer bug');
    expect(await result.next()).toEqual({ done: true, value: undefined });
  });

  it('drain(onEvent) sees the events iterating would, from scripted turns given at once and later', async () => {
    const turns: ScriptedTurn[] = ['Hello, world', { toolCalls: [{ name: 'noop', arguments: { a: 1 } }] }];
    for (const source of [(_: unknown, i: number) => turns[i]!, async (_: unknown, i: number) => turns[i]!]) {
      for (let i = 0; i < turns.length; i++) {
        // Ids count the calls, so both clients have answered the same calls before.
        const iterating = scripted(turns);
        const client = scripted(source);
        for (let skip = 0; skip < i; skip++) {
          await iterating.stream(request).response();
          await client.stream(request).response();
        }
        const iterated: StreamEvent[] = [];
        for await (const event of iterating.stream(request)) iterated.push(event);
        const seen: StreamEvent[] = [];
        await client.stream(request).drain((event) => seen.push(event));
        expect(seen).toEqual(iterated);
      }
    }
  });

  it('drain(onEvent) hands over the error event, then rejects with that error', async () => {
    const failing = new LLMClient({
      adapters: [new ScriptedAdapter({ turns: [{ error: new ServerError('down') }] })],
      retryPolicy: { maxRetries: 0 },
    });
    const seen: string[] = [];
    await expect(failing.stream(request).drain((event) => seen.push(event.type))).rejects.toThrow(
      ServerError,
    );
    expect(seen).toEqual(['error']);
  });

  it('gives streamGenerateWithTools the same view, ending on the last round', async () => {
    const client = scripted([{ toolCalls: [{ name: 'noop', arguments: {} }] }, 'All done.']);
    const result = client.streamGenerateWithTools({
      model: 'm',
      prompt: 'x',
      tools: [{ name: 'noop', description: 'd', parameters: { type: 'object' }, execute: async () => 'ok' }],
    });
    expect((await result.response()).text).toBe('All done.');
  });
});

describe('StreamAccumulator against the fake Anthropic server', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startFakeAnthropicServer();
  });
  afterAll(() => server.close());

  it('assembles thinking (with signature), text and tool calls exactly as the adapter’s final message', async () => {
    server.enqueue(
      anthropicStreamReply({
        content: [
          { type: 'thinking', thinking: 'Let me think.', signature: 'sig-1' },
          { type: 'text', text: 'Checking the weather.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
        stop_reason: 'tool_use',
      }),
    );
    const client = new LLMClient({
      adapters: [new AnthropicAdapter({ apiKey: FAKE_ANTHROPIC_KEY, baseURL: server.origin, env: {} })],
    });
    const accumulator = new StreamAccumulator();
    let beforeFinish: StreamEvent[] = [];
    const events: StreamEvent[] = [];
    for await (const event of client.stream({ model: 'claude-sonnet-4-6', messages: [Message.user('x')] })) {
      events.push(event);
      if (event.type === 'finish') beforeFinish = [...events];
    }
    for (const event of beforeFinish.slice(0, -1)) accumulator.add(event);
    expect(accumulator.finished).toBe(false);
    const final = (events.at(-1) as Extract<StreamEvent, { type: 'finish' }>).response;
    expect(accumulator.response.message.content).toEqual(final.message.content);
    expect(accumulator.response.toolCalls).toEqual(final.toolCalls);
    accumulator.add(events.at(-1)!);
    expect(accumulator.response).toBe(final);
  });
  it('response(onEvent) over the real SDK stream sees the same events as iterating it', async () => {
    const reply = () =>
      anthropicStreamReply({
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Oslo' } },
        ],
        stop_reason: 'tool_use',
      });
    const client = new LLMClient({
      adapters: [new AnthropicAdapter({ apiKey: FAKE_ANTHROPIC_KEY, baseURL: server.origin, env: {} })],
    });
    const call = { model: 'claude-sonnet-4-6', messages: [Message.user('x')] };
    server.enqueue(reply());
    const iterated: StreamEvent[] = [];
    for await (const event of client.stream(call)) iterated.push(event);
    server.enqueue(reply());
    const seen: StreamEvent[] = [];
    const response = await client.stream(call).response((event) => seen.push(event));
    const strip = (events: StreamEvent[]) =>
      events.map((event) =>
        event.type === 'finish' ? { ...event, response: { ...event.response, latencyMs: 0 } } : event,
      );
    expect(strip(seen)).toEqual(strip(iterated));
    expect(response.toolCalls[0]?.arguments).toEqual({ city: 'Oslo' });
  });
});
