import { getEventListeners } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LLMClient } from '../../../../src/llm/client.js';
import { Message } from '../../../../src/llm/message.js';
import { OpenAIAdapter } from '../../../../src/llm/providers/openai/openai-adapter.js';
import {
  FAKE_OPENAI_KEY,
  type FakeOpenAIServer,
  functionCallItem,
  messageItem,
  reasoningItem,
  responsesJsonReply,
  responsesSseReply,
  responsesStream,
  startFakeOpenAIServer,
  streamedFunctionCallEvents,
  streamedMessageEvents,
  streamedReasoningEvents,
} from '../../../helpers/fake-openai-server.js';
import { collectEvents, lastRequestBody, weatherTool } from '../../../helpers/llm-fixtures.js';

let server: FakeOpenAIServer;
let adapter: OpenAIAdapter;

beforeAll(async () => {
  server = await startFakeOpenAIServer();
  adapter = new OpenAIAdapter({ apiKey: FAKE_OPENAI_KEY, baseURL: server.baseURL });
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
  vi.unstubAllEnvs();
});

const weather = weatherTool;

const lastBody = (): Record<string, unknown> => lastRequestBody(server);

const collect = collectEvents;

describe('OpenAIAdapter.stream', () => {
  it('maps a streamed text response to start/delta/end events and a finish with the full response', async () => {
    server.enqueue(
      responsesSseReply(
        responsesStream(streamedMessageEvents(0, ['Hel', 'lo ', 'world']), {
          output: [messageItem('Hello world')],
          usage: { input: 8, output: 3, cached: 4 },
        }),
      ),
    );
    const events = await collect(adapter.stream({ model: 'gpt-5.2', messages: [Message.user('Hi')] }));
    expect(lastBody()).toMatchObject({ stream: true, model: 'gpt-5.2' });
    expect(events.map((event) => event.type)).toEqual([
      'stream_start',
      'text_start',
      'text_delta',
      'text_delta',
      'text_delta',
      'text_end',
      'finish',
    ]);
    expect(events[0]).toEqual({ type: 'stream_start', id: 'resp_1', model: 'gpt-5.2-2026-01-01' });
    const deltas = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : []));
    expect(deltas.join('')).toBe('Hello world');
    expect(events[5]).toEqual({ type: 'text_end', textId: 'msg_1', text: 'Hello world' });
    const finish = events.at(-1);
    expect(finish).toMatchObject({
      type: 'finish',
      finishReason: { reason: 'stop' },
      usage: { inputTokens: 8, outputTokens: 3, cacheReadTokens: 4 },
      response: { text: 'Hello world', provider: 'openai' },
    });
  });

  it('streams tool-call arguments as deltas, for parallel calls', async () => {
    const calls = [
      ...streamedFunctionCallEvents(0, 'call_a', 'get_weather', ['{"ci', 'ty":"Par', 'is"}']),
      ...streamedFunctionCallEvents(1, 'call_b', 'get_weather', ['{"city":', '"Tokyo"}']),
    ];
    server.enqueue(
      responsesSseReply(
        responsesStream(calls, {
          output: [
            functionCallItem('call_a', 'get_weather', '{"city":"Paris"}'),
            functionCallItem('call_b', 'get_weather', '{"city":"Tokyo"}'),
          ],
        }),
      ),
    );
    const events = await collect(
      adapter.stream({ model: 'gpt-5.2', messages: [Message.user('x')], tools: [weather] }),
    );
    const toolEvents = events.filter((event) => event.type.startsWith('tool_call'));
    expect(toolEvents).toEqual([
      { type: 'tool_call_start', toolCallId: 'call_a', toolName: 'get_weather' },
      { type: 'tool_call_delta', toolCallId: 'call_a', argumentsDelta: '{"ci' },
      { type: 'tool_call_delta', toolCallId: 'call_a', argumentsDelta: 'ty":"Par' },
      { type: 'tool_call_delta', toolCallId: 'call_a', argumentsDelta: 'is"}' },
      {
        type: 'tool_call_end',
        toolCall: {
          kind: 'tool_call',
          toolCallId: 'call_a',
          toolName: 'get_weather',
          arguments: { city: 'Paris' },
          argumentsJson: '{"city":"Paris"}',
        },
      },
      { type: 'tool_call_start', toolCallId: 'call_b', toolName: 'get_weather' },
      { type: 'tool_call_delta', toolCallId: 'call_b', argumentsDelta: '{"city":' },
      { type: 'tool_call_delta', toolCallId: 'call_b', argumentsDelta: '"Tokyo"}' },
      expect.objectContaining({ type: 'tool_call_end' }),
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: { reason: 'tool_calls' } });
  });

  it('streams reasoning summaries before the answer, with the signature on reasoning_end', async () => {
    server.enqueue(
      responsesSseReply(
        responsesStream(
          [...streamedReasoningEvents(0, ['Think', 'ing.'], 'enc-1'), ...streamedMessageEvents(1, ['Done'])],
          {
            output: [reasoningItem('Thinking.', 'enc-1'), messageItem('Done')],
            usage: { input: 5, output: 9, reasoning: 7 },
          },
        ),
      ),
    );
    const events = await collect(
      adapter.stream({ model: 'o3', messages: [Message.user('x')], reasoningEffort: 'low' }),
    );
    expect(events.map((event) => event.type)).toEqual([
      'stream_start',
      'reasoning_start',
      'reasoning_delta',
      'reasoning_delta',
      'reasoning_end',
      'text_start',
      'text_delta',
      'text_end',
      'finish',
    ]);
    expect(events[4]).toEqual({
      type: 'reasoning_end',
      reasoningId: 'rs_1',
      text: 'Thinking.',
      signature: JSON.stringify({ id: 'rs_1', encrypted_content: 'enc-1' }),
    });
    const finish = events.at(-1);
    expect(finish?.type === 'finish' && finish.response.reasoning).toBe('Thinking.');
    expect(finish?.type === 'finish' && finish.usage.reasoningTokens).toBe(7);
  });
});

describe('OpenAIAdapter and a caller signal shared by many calls', () => {
  // An agent session passes one signal to every call of an input, and the client hands it to the adapter as
  // it is (decision 0041): each call must take its abort listener off it again.
  it('leaves no abort listener on it after complete and stream calls', async () => {
    const caller = new AbortController();
    const llm = new LLMClient({ adapters: [adapter] });
    for (let i = 0; i < 12; i++) {
      server.enqueue(responsesJsonReply({ output: [messageItem(`reply ${i}`)] }));
      await llm.complete({ model: 'gpt-5.2', messages: [Message.user('Hi')] }, { signal: caller.signal });
      server.enqueue(
        responsesSseReply(responsesStream(streamedMessageEvents(0, ['ok']), { output: [messageItem('ok')] })),
      );
      await collect(
        llm.stream({ model: 'gpt-5.2', messages: [Message.user('Hi')] }, { signal: caller.signal }),
      );
    }
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });
});
