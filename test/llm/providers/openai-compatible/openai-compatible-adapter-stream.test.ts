import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Message } from '../../../../src/llm/message.js';
import { OpenAICompatibleAdapter } from '../../../../src/llm/providers/openai-compatible/openai-compatible-adapter.js';
import {
  chatChunk,
  chatSseReply,
  FAKE_OPENAI_KEY,
  type FakeOpenAIServer,
  startFakeOpenAIServer,
} from '../../../helpers/fake-openai-server.js';
import { collectEvents, lastRequestBody, weatherTool } from '../../../helpers/llm-fixtures.js';

let server: FakeOpenAIServer;
let adapter: OpenAICompatibleAdapter;

beforeAll(async () => {
  server = await startFakeOpenAIServer();
  adapter = new OpenAICompatibleAdapter({ apiKey: FAKE_OPENAI_KEY, baseURL: server.baseURL });
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const weather = weatherTool;

const lastBody = (): Record<string, unknown> => lastRequestBody(server);

const collect = collectEvents;

describe('OpenAICompatibleAdapter.stream', () => {
  it('asks for usage in the stream and maps content deltas, finish and the trailing usage chunk', async () => {
    server.enqueue(
      chatSseReply([
        chatChunk({ role: 'assistant', content: '' }),
        chatChunk({ content: 'Hel' }),
        chatChunk({ content: 'lo' }),
        chatChunk({}, 'stop'),
        chatChunk(null, null, { prompt: 7, completion: 2, cached: 3 }),
      ]),
    );
    const events = await collect(adapter.stream({ model: 'local', messages: [Message.user('Hi')] }));
    expect(lastBody()).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(events.map((e) => e.type)).toEqual([
      'stream_start',
      'text_start',
      'text_delta',
      'text_delta',
      'text_end',
      'finish',
    ]);
    expect(events[4]).toEqual({ type: 'text_end', textId: 'text_0', text: 'Hello' });
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { reason: 'stop' },
      usage: { inputTokens: 7, outputTokens: 2, cacheReadTokens: 3 },
      response: { text: 'Hello', id: 'chatcmpl-1', provider: 'openai-compatible' },
    });
  });

  it('assembles parallel tool calls from index-addressed argument deltas', async () => {
    const call = (index: number, fields: Record<string, unknown>) =>
      chatChunk({ tool_calls: [{ index, ...fields }] });
    server.enqueue(
      chatSseReply([
        chatChunk({ role: 'assistant', content: null }),
        call(0, { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }),
        call(0, { function: { arguments: '{"city":' } }),
        call(0, { function: { arguments: '"Paris"}' } }),
        call(1, {
          id: 'call_b',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Rome"}' },
        }),
        chatChunk({}, 'tool_calls'),
        chatChunk(null, null, { prompt: 9, completion: 30 }),
      ]),
    );
    const events = await collect(
      adapter.stream({ model: 'local', messages: [Message.user('x')], tools: [weather] }),
    );
    expect(events.filter((e) => e.type !== 'stream_start' && e.type !== 'finish')).toEqual([
      { type: 'tool_call_start', toolCallId: 'call_a', toolName: 'get_weather' },
      { type: 'tool_call_delta', toolCallId: 'call_a', argumentsDelta: '{"city":' },
      { type: 'tool_call_delta', toolCallId: 'call_a', argumentsDelta: '"Paris"}' },
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
      { type: 'tool_call_delta', toolCallId: 'call_b', argumentsDelta: '{"city":"Rome"}' },
      expect.objectContaining({
        type: 'tool_call_end',
        toolCall: expect.objectContaining({ arguments: { city: 'Rome' } }),
      }),
    ]);
    const finish = events.at(-1);
    if (finish?.type !== 'finish') throw new Error('no finish');
    expect(finish.finishReason).toEqual({ reason: 'tool_calls', raw: 'tool_calls' });
    expect(finish.response.toolCalls.map((c) => c.toolCallId)).toEqual(['call_a', 'call_b']);
  });

  it('streams reasoning_content before the answer', async () => {
    server.enqueue(
      chatSseReply([
        chatChunk({ role: 'assistant', reasoning_content: 'Hmm, ' }),
        chatChunk({ reasoning_content: 'easy.' }),
        chatChunk({ content: '4' }),
        chatChunk({}, 'stop'),
      ]),
    );
    const events = await collect(adapter.stream({ model: 'local', messages: [Message.user('2+2')] }));
    expect(events.map((e) => e.type)).toEqual([
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
    const finish = events.at(-1);
    expect(finish?.type === 'finish' && finish.response.reasoning).toBe('Hmm, easy.');
    expect(finish?.type === 'finish' && finish.response.text).toBe('4');
  });
});
