import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readLLMEnvConfig } from '../../../../src/llm/env-config.js';
import { Message } from '../../../../src/llm/message.js';
import { OpenAICompatibleAdapter } from '../../../../src/llm/providers/openai-compatible/openai-compatible-adapter.js';
import type { Request } from '../../../../src/llm/types.js';
import {
  chatChunk,
  chatCompletionReply,
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

const _collect = collectEvents;

describe('OpenAICompatibleAdapter.complete', () => {
  it('posts /v1/chat/completions and maps text, usage and the finish reason', async () => {
    server.enqueue(
      chatCompletionReply({ content: 'Hello there', usage: { prompt: 11, completion: 4, cached: 6 } }),
    );
    const response = await adapter.complete({
      model: 'qwen3:8b',
      systemPrompt: 'You are terse.',
      messages: [Message.developer('No emoji.'), Message.user('Hello')],
      temperature: 0.1,
      topP: 0.9,
      maxTokens: 50,
      stopSequences: ['END'],
    });
    const request = server.requests[0]!;
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${FAKE_OPENAI_KEY}`);
    expect(request.body).toEqual({
      model: 'qwen3:8b',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'system', content: 'No emoji.' },
        { role: 'user', content: 'Hello' },
      ],
      temperature: 0.1,
      top_p: 0.9,
      max_tokens: 50,
      stop: ['END'],
      stream: false,
    });
    expect(response).toMatchObject({
      id: 'chatcmpl-1',
      model: 'local-model',
      provider: 'openai-compatible',
      text: 'Hello there',
      finishReason: { reason: 'stop', raw: 'stop' },
      usage: { inputTokens: 11, outputTokens: 4, totalTokens: 15, cacheReadTokens: 6, reasoningTokens: 0 },
    });
  });

  it('round-trips tool calls: tool_calls on the assistant message, then one tool message per result', async () => {
    server.enqueue(
      chatCompletionReply({
        content: null,
        finishReason: 'tool_calls',
        toolCalls: [
          { id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { id: 'call_b', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
        ],
      }),
      chatCompletionReply({ content: 'Both sunny.' }),
    );
    const request: Request = {
      model: 'local',
      messages: [Message.user('Weather?')],
      tools: [weather],
      toolChoice: { mode: 'named', toolName: 'get_weather' },
    };
    const first = await adapter.complete(request);
    expect(lastBody()).toMatchObject({
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Current weather for a city',
            parameters: weather.parameters,
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    expect(first.finishReason).toEqual({ reason: 'tool_calls', raw: 'tool_calls' });
    expect(first.toolCalls.map((call) => [call.toolCallId, call.arguments])).toEqual([
      ['call_a', { city: 'Paris' }],
      ['call_b', { city: 'Tokyo' }],
    ]);

    await adapter.complete({
      ...request,
      toolChoice: { mode: 'required' },
      messages: [
        ...request.messages,
        first.message,
        Message.toolResult('call_a', 'sunny'),
        Message.toolResult('call_b', 'sunny too'),
      ],
    });
    expect(lastBody().tool_choice).toBe('required');
    expect(lastBody().messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_a',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          {
            id: 'call_b',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Tokyo"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'sunny' },
      { role: 'tool', tool_call_id: 'call_b', content: 'sunny too' },
    ]);
  });

  it('passes reasoning_effort, maps reasoning_content, and does not send thinking back', async () => {
    server.enqueue(
      chatCompletionReply({
        content: '42',
        reasoningContent: 'Six times seven.',
        usage: { prompt: 5, completion: 20, reasoning: 15 },
      }),
      chatCompletionReply({ content: 'ok' }),
    );
    const first = await adapter.complete({
      model: 'deepseek-reasoner',
      messages: [Message.user('6*7?')],
      reasoningEffort: 'medium',
    });
    expect(lastBody().reasoning_effort).toBe('medium');
    expect(first.reasoning).toBe('Six times seven.');
    expect(first.usage.reasoningTokens).toBe(15);
    await adapter.complete({
      model: 'deepseek-reasoner',
      messages: [Message.user('6*7?'), first.message, Message.user('sure?')],
    });
    expect((lastBody().messages as unknown[])[1]).toEqual({ role: 'assistant', content: '42' });
  });

  it('asks for structured output with response_format json_schema', async () => {
    const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    server.enqueue(chatCompletionReply({ content: '{"name":"Alice"}' }));
    await adapter.complete({
      model: 'local',
      messages: [Message.user('x')],
      responseFormat: { type: 'json_schema', jsonSchema: schema, name: 'person', strict: false },
    });
    expect(lastBody().response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'person', schema, strict: false },
    });
  });

  it('sends images as image_url parts', async () => {
    server.enqueue(chatCompletionReply({ content: 'a cat' }));
    await adapter.complete({
      model: 'local',
      messages: [
        {
          role: 'user',
          content: [
            { kind: 'text', text: 'What?' },
            { kind: 'image', data: 'AAAA' },
          ],
        },
      ],
    });
    expect(lastBody().messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
    ]);
  });

  it.each([
    ['length', 'length'],
    ['content_filter', 'content_filter'],
    ['eos', 'other'],
  ] as const)('maps finish_reason %s to %s', async (raw, reason) => {
    server.enqueue(chatCompletionReply({ content: 'x', finishReason: raw as 'length' }));
    const response = await adapter.complete({ model: 'local', messages: [Message.user('x')] });
    expect(response.finishReason).toEqual({ reason, raw });
  });
});

describe('OpenAICompatibleAdapter configuration', () => {
  it('fails at the first call naming the missing server URL, without sending anything', async () => {
    const incomplete = new OpenAICompatibleAdapter({ apiKey: 'k', env: {} });
    await expect(incomplete.complete({ model: 'm', messages: [Message.user('x')] })).rejects.toMatchObject({
      name: 'ConfigurationError',
      message: expect.stringContaining('OPENAI_COMPATIBLE_BASE_URL'),
    });
  });

  it('needs no key: a keyless local server gets no Authorization header, streaming or not', async () => {
    const keyless = await startFakeOpenAIServer(null);
    try {
      const local = new OpenAICompatibleAdapter({ env: { OPENAI_COMPATIBLE_BASE_URL: keyless.baseURL } });
      keyless.enqueue(
        chatCompletionReply({ content: 'no key needed' }),
        chatSseReply([chatChunk({ role: 'assistant', content: 'streamed' }), chatChunk({}, 'stop')]),
      );
      const response = await local.complete({ model: 'llama3', messages: [Message.user('x')] });
      expect(response.text).toBe('no key needed');
      const events = await collectEvents(local.stream({ model: 'llama3', messages: [Message.user('x')] }));
      expect(events.some((e) => e.type === 'finish')).toBe(true);
      expect(keyless.requests).toHaveLength(2);
      for (const request of keyless.requests) expect(request.headers).not.toHaveProperty('authorization');
    } finally {
      await keyless.close();
    }
  });

  it('without a key, a server that wants one refuses with its 401 (an AuthenticationError)', async () => {
    const local = new OpenAICompatibleAdapter({ baseURL: server.baseURL, env: {} });
    const error = await local
      .complete({ model: 'm', messages: [Message.user('x')] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AuthenticationError', status: 401, provider: 'openai-compatible' });
    expect(server.requests.at(-1)!.headers).not.toHaveProperty('authorization');
  });

  it('reads OPENAI_COMPATIBLE_API_KEY and OPENAI_COMPATIBLE_BASE_URL, and uses its own provider name', async () => {
    server.enqueue(chatCompletionReply({ content: 'from env' }));
    const fromEnv = new OpenAICompatibleAdapter({
      name: 'ollama',
      env: { OPENAI_COMPATIBLE_API_KEY: FAKE_OPENAI_KEY, OPENAI_COMPATIBLE_BASE_URL: server.baseURL },
    });
    const response = await fromEnv.complete({
      model: 'llama3',
      messages: [Message.user('x')],
      providerOptions: { ollama: { keep_alive: '5m' }, 'openai-compatible': { ignored: true } },
    });
    expect(response).toMatchObject({ text: 'from env', provider: 'ollama' });
    expect(lastBody()).toMatchObject({ keep_alive: '5m' });
    expect(lastBody()).not.toHaveProperty('ignored');
  });

  it('is configured by the core’s readLLMEnvConfig from OPENAI_COMPATIBLE_BASE_URL and _API_KEY', async () => {
    const config = readLLMEnvConfig({
      OPENAI_COMPATIBLE_API_KEY: FAKE_OPENAI_KEY,
      OPENAI_COMPATIBLE_BASE_URL: server.baseURL,
    }).openaiCompatible;
    expect(config).toBeDefined();
    server.enqueue(chatCompletionReply({ content: 'via readLLMEnvConfig' }));
    const configured = new OpenAICompatibleAdapter({
      apiKey: config!.apiKey!,
      baseURL: config!.baseURL!,
      env: {},
    });
    const response = await configured.complete({ model: 'm', messages: [Message.user('x')] });
    expect(response.text).toBe('via readLLMEnvConfig');
  });

  it.each([
    [['llama3'], 'llama3', true],
    [['qwen*'], 'qwen3:8b', true],
    [['qwen*'], 'llama3', false],
    [undefined, 'gpt-5.2', false],
  ])('with models %o claims %s: %s', (models, model, expected) => {
    const claiming = new OpenAICompatibleAdapter(models ? { models } : {});
    expect(claiming.supportsModel(model)).toBe(expected);
  });
});
