import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { adaptersFromEnv } from '../../../../src/llm/env-adapters.js';
import { Message } from '../../../../src/llm/message.js';
import { OpenAIAdapter } from '../../../../src/llm/providers/openai/openai-adapter.js';
import type { Request } from '../../../../src/llm/types.js';
import {
  FAKE_OPENAI_KEY,
  type FakeOpenAIServer,
  functionCallItem,
  messageItem,
  reasoningItem,
  responseObject,
  responsesJsonReply,
  startFakeOpenAIServer,
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

const _collect = collectEvents;

describe('OpenAIAdapter.complete', () => {
  it('sends a Responses request and maps plain text, usage and rate limits', async () => {
    server.enqueue(
      responsesJsonReply(
        { output: [messageItem('Hello there')], usage: { input: 12, output: 3 } },
        { 'x-ratelimit-remaining-requests': '499', 'x-ratelimit-limit-requests': '500' },
      ),
    );
    const response = await adapter.complete({
      model: 'gpt-5.2',
      messages: [Message.system('Be brief.'), Message.user('Hello')],
      temperature: 0.2,
      maxTokens: 100,
    });

    const request = server.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/v1/responses');
    expect(request.headers.authorization).toBe(`Bearer ${FAKE_OPENAI_KEY}`);
    // The SDK must not retry on its own (the client does): its retry header says attempt 0.
    expect(request.headers['x-stainless-retry-count']).toBe('0');
    expect(request.body).toEqual({
      model: 'gpt-5.2',
      instructions: 'Be brief.',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello' }] }],
      store: false,
      stream: false,
      temperature: 0.2,
      max_output_tokens: 100,
    });

    expect(response).toMatchObject({
      id: 'resp_1',
      model: 'gpt-5.2-2026-01-01',
      provider: 'openai',
      text: 'Hello there',
      finishReason: { reason: 'stop', raw: 'completed' },
      usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15, reasoningTokens: 0, cacheReadTokens: 0 },
      rateLimit: { requestsRemaining: 499, requestsLimit: 500 },
      warnings: [],
    });
    expect(response.message).toEqual({ role: 'assistant', content: [{ kind: 'text', text: 'Hello there' }] });
  });

  it('maps cached input tokens to cache reads and keeps reasoning tokens apart from the output', async () => {
    server.enqueue(
      responsesJsonReply({
        output: [messageItem('ok')],
        usage: { input: 2000, output: 50, cached: 1536, reasoning: 30 },
      }),
    );
    const response = await adapter.complete({ model: 'gpt-5.2', messages: [Message.user('again')] });
    expect(response.usage).toMatchObject({
      inputTokens: 2000,
      outputTokens: 50,
      totalTokens: 2050,
      cacheReadTokens: 1536,
      reasoningTokens: 30,
    });
  });

  it('round-trips a tool call: tools, named tool choice, function_call and function_call_output items', async () => {
    server.enqueue(
      responsesJsonReply({ output: [functionCallItem('call_1', 'get_weather', '{"city":"Paris"}')] }),
      responsesJsonReply({ output: [messageItem('It is sunny in Paris.')] }),
    );
    const request: Request = {
      model: 'gpt-5.2',
      messages: [Message.user('Weather in Paris?')],
      tools: [weather],
      toolChoice: { mode: 'named', toolName: 'get_weather' },
    };
    const first = await adapter.complete(request);
    expect(lastBody()).toMatchObject({
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Current weather for a city',
          parameters: weather.parameters,
          strict: false,
        },
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
    });
    expect(first.finishReason).toEqual({ reason: 'tool_calls', raw: 'completed' });
    expect(first.toolCalls).toEqual([
      {
        kind: 'tool_call',
        toolCallId: 'call_1',
        toolName: 'get_weather',
        arguments: { city: 'Paris' },
        argumentsJson: '{"city":"Paris"}',
      },
    ]);

    const second = await adapter.complete({
      ...request,
      toolChoice: { mode: 'auto' },
      messages: [...request.messages, first.message, Message.toolResult('call_1', '22°C, sunny')],
    });
    expect(lastBody().input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '22°C, sunny' },
    ]);
    expect(lastBody().tool_choice).toBe('auto');
    expect(second.text).toBe('It is sunny in Paris.');
  });

  it.each([
    ['auto', { mode: 'auto' }, 'auto'],
    ['none', { mode: 'none' }, 'none'],
    ['required', { mode: 'required' }, 'required'],
  ] as const)('maps tool choice %s', async (_name, toolChoice, expected) => {
    server.enqueue(responsesJsonReply({ output: [messageItem('ok')] }));
    await adapter.complete({ model: 'gpt-5.2', messages: [Message.user('x')], tools: [weather], toolChoice });
    expect(lastBody().tool_choice).toBe(expected);
  });

  it('returns parallel tool calls in order', async () => {
    server.enqueue(
      responsesJsonReply({
        output: [
          functionCallItem('call_a', 'get_weather', '{"city":"Paris"}'),
          functionCallItem('call_b', 'get_weather', '{"city":"Tokyo"}'),
        ],
      }),
    );
    const response = await adapter.complete({
      model: 'gpt-5.2',
      messages: [Message.user('both')],
      tools: [weather],
    });
    expect(response.toolCalls.map((call) => [call.toolCallId, call.arguments])).toEqual([
      ['call_a', { city: 'Paris' }],
      ['call_b', { city: 'Tokyo' }],
    ]);
  });

  it('passes reasoning effort and replays reasoning items with their encrypted content', async () => {
    server.enqueue(
      responsesJsonReply({
        output: [reasoningItem('Compare the two numbers.', 'enc-abc', 'rs_9'), messageItem('9.11 < 9.9')],
        usage: { input: 20, output: 40, reasoning: 32 },
      }),
      responsesJsonReply({ output: [messageItem('Yes.')] }),
    );
    const first = await adapter.complete({
      model: 'o4-mini',
      messages: [Message.user('Is 9.11 < 9.9?')],
      reasoningEffort: 'high',
    });
    expect(lastBody()).toMatchObject({
      reasoning: { effort: 'high', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
    });
    expect(first.reasoning).toBe('Compare the two numbers.');
    expect(first.usage.reasoningTokens).toBe(32);

    await adapter.complete({
      model: 'o4-mini',
      messages: [Message.user('Is 9.11 < 9.9?'), first.message, Message.user('Sure?')],
    });
    expect(lastBody().input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Is 9.11 < 9.9?' }] },
      {
        type: 'reasoning',
        id: 'rs_9',
        summary: [{ type: 'summary_text', text: 'Compare the two numbers.' }],
        encrypted_content: 'enc-abc',
      },
      { type: 'message', role: 'assistant', content: '9.11 < 9.9' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Sure?' }] },
    ]);
  });

  it('drops thinking parts it cannot replay: foreign signatures, and reasoning without encrypted content', async () => {
    server.enqueue(responsesJsonReply({ output: [messageItem('ok')] }));
    await adapter.complete({
      model: 'gpt-5.2',
      messages: [
        Message.user('q'),
        {
          role: 'assistant',
          content: [
            { kind: 'thinking', text: 'hm', signature: 'anthropic-sig' },
            {
              kind: 'thinking',
              text: 'hm',
              signature: JSON.stringify({ id: 'rs_2', encrypted_content: null }),
            },
            { kind: 'text', text: 'a' },
          ],
        },
      ],
    });
    expect(lastBody().input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q' }] },
      { type: 'message', role: 'assistant', content: 'a' },
    ]);
  });

  it('asks for structured output with a strict json_schema text format', async () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer' } },
      required: ['name', 'age'],
      additionalProperties: false,
    };
    server.enqueue(responsesJsonReply({ output: [messageItem('{"name":"Alice","age":30}')] }));
    const response = await adapter.complete({
      model: 'gpt-5.2',
      messages: [Message.user('Alice is 30')],
      responseFormat: { type: 'json_schema', jsonSchema: schema, name: 'person' },
    });
    expect(lastBody().text).toEqual({
      format: { type: 'json_schema', name: 'person', schema, strict: true },
    });
    expect(JSON.parse(response.text)).toEqual({ name: 'Alice', age: 30 });
  });

  it('maps an incomplete response to finish reason length', async () => {
    server.enqueue(
      responsesJsonReply({
        status: 'incomplete',
        incompleteReason: 'max_output_tokens',
        output: [messageItem('Hel')],
      }),
    );
    const response = await adapter.complete({
      model: 'gpt-5.2',
      messages: [Message.user('x')],
      maxTokens: 1,
    });
    expect(response.finishReason).toEqual({ reason: 'length', raw: 'max_output_tokens' });
  });

  it('sends images by URL, as base64 data and read from a local file; developer messages stay in place', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-openai-'));
    try {
      const file = path.join(dir, 'pixel.png');
      fs.writeFileSync(file, Buffer.from([137, 80, 78, 71]));
      server.enqueue(responsesJsonReply({ output: [messageItem('three images')] }));
      const response = await adapter.complete({
        model: 'gpt-5.2',
        messages: [
          Message.developer('Describe images.'),
          {
            role: 'user',
            content: [
              { kind: 'image', url: 'https://example.com/cat.png', detail: 'low' },
              { kind: 'image', data: 'AAAA', mediaType: 'image/jpeg' },
              { kind: 'image', url: file },
            ],
          },
        ],
        stopSequences: ['END'],
        providerOptions: { openai: { service_tier: 'flex' }, gemini: { ignored: true } },
      });
      expect(lastBody()).toMatchObject({
        service_tier: 'flex',
        input: [
          { type: 'message', role: 'developer', content: 'Describe images.' },
          {
            type: 'message',
            role: 'user',
            content: [
              { type: 'input_image', image_url: 'https://example.com/cat.png', detail: 'low' },
              { type: 'input_image', image_url: 'data:image/jpeg;base64,AAAA', detail: 'auto' },
              { type: 'input_image', image_url: 'data:image/png;base64,iVBORw==', detail: 'auto' },
            ],
          },
        ],
      });
      expect(lastBody()).not.toHaveProperty('ignored');
      expect(response.warnings).toEqual([
        'openai: the Responses API has no stop sequences; stopSequences was ignored',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('OpenAIAdapter configuration', () => {
  it('fails at the first call, naming OPENAI_API_KEY, when no key is configured', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const keyless = new OpenAIAdapter({ baseURL: server.baseURL });
    await expect(keyless.complete({ model: 'gpt-5.2', messages: [Message.user('x')] })).rejects.toMatchObject(
      {
        name: 'ConfigurationError',
        message: expect.stringContaining('OPENAI_API_KEY'),
      },
    );
    expect(server.requests).toHaveLength(0);
  });

  it('reads OPENAI_API_KEY and OPENAI_BASE_URL from the environment', async () => {
    vi.stubEnv('OPENAI_API_KEY', FAKE_OPENAI_KEY);
    vi.stubEnv('OPENAI_BASE_URL', server.baseURL);
    server.enqueue(responsesJsonReply({ output: [messageItem('from env')] }));
    const response = await new OpenAIAdapter().complete({ model: 'gpt-5.2', messages: [Message.user('x')] });
    expect(response.text).toBe('from env');
    expect(server.requests).toHaveLength(1);
  });

  it('is built by the core’s adaptersFromEnv from OPENAI_API_KEY and OPENAI_BASE_URL', async () => {
    const env = { OPENAI_API_KEY: FAKE_OPENAI_KEY, OPENAI_BASE_URL: server.baseURL };
    const openai = adaptersFromEnv({ env, dotenv: false }).find((a) => a.name === 'openai');
    server.enqueue(responsesJsonReply({ output: [messageItem('via adaptersFromEnv')] }));
    const response = await openai!.complete({ model: 'gpt-5.2', messages: [Message.user('x')] });
    expect(response.text).toBe('via adaptersFromEnv');
    expect(server.requests[0]!.url).toBe('/v1/responses');
  });

  it.each([
    ['gpt-5.2', true],
    ['o3', true],
    ['o4-mini', true],
    ['codex-mini-latest', true],
    ['claude-opus-4-6', false],
    ['gemini-2.5-pro', false],
  ])('claims model %s: %s', (model, expected) => {
    expect(adapter.supportsModel(model)).toBe(expected);
  });

  it('keeps the raw Response object for diagnosis', async () => {
    server.enqueue(responsesJsonReply({ output: [messageItem('raw')] }));
    const response = await adapter.complete({ model: 'gpt-5.2', messages: [Message.user('x')] });
    expect(response.raw).toMatchObject(responseObject({ output: [messageItem('raw')] }));
  });
});
