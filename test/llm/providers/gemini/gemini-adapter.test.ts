import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { adaptersFromEnv } from '../../../../src/llm/env-adapters.js';
import { Message } from '../../../../src/llm/message.js';
import { GeminiAdapter } from '../../../../src/llm/providers/gemini/gemini-adapter.js';
import type { Request } from '../../../../src/llm/types.js';
import {
  FAKE_GEMINI_KEY,
  geminiJsonReply,
  startFakeGeminiServer,
} from '../../../helpers/fake-gemini-server.js';
import { collectEvents, lastRequestBody, weatherTool } from '../../../helpers/llm-fixtures.js';
import type { ScriptedServer } from '../../../helpers/sse.js';

let server: ScriptedServer;
let adapter: GeminiAdapter;

beforeAll(async () => {
  server = await startFakeGeminiServer();
  adapter = new GeminiAdapter({ apiKey: FAKE_GEMINI_KEY, baseURL: server.origin });
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
  vi.unstubAllEnvs();
});

const weather = weatherTool;

const lastBody = (): Record<string, unknown> => lastRequestBody(server);

const _collect = collectEvents;

describe('GeminiAdapter.complete', () => {
  it('posts generateContent with systemInstruction and user contents, and maps text and usage', async () => {
    server.enqueue(
      geminiJsonReply({
        parts: [{ text: 'Hello there' }],
        finishReason: 'STOP',
        usage: { prompt: 12, candidates: 3, cached: 8 },
      }),
    );
    const response = await adapter.complete({
      model: 'gemini-2.5-pro',
      messages: [Message.system('Be brief.'), Message.user('Hello')],
      temperature: 0.3,
      maxTokens: 64,
      stopSequences: ['END'],
    });

    const request = server.requests[0]!;
    expect(request.url).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
    expect(request.headers['x-goog-api-key']).toBe(FAKE_GEMINI_KEY);
    expect(request.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Hello' }] }],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: { temperature: 0.3, maxOutputTokens: 64, stopSequences: ['END'] },
    });

    expect(response).toMatchObject({
      id: 'gemini-resp-1',
      model: 'gemini-2.5-pro',
      provider: 'gemini',
      text: 'Hello there',
      finishReason: { reason: 'stop', raw: 'STOP' },
      usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15, cacheReadTokens: 8 },
    });
    expect(response.usage.reasoningTokens).toBeUndefined();
  });

  it('round-trips a tool call: declarations, named choice, functionCall, functionResponse', async () => {
    server.enqueue(
      geminiJsonReply({
        parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }],
        finishReason: 'STOP',
      }),
      geminiJsonReply({ parts: [{ text: 'Sunny.' }], finishReason: 'STOP' }),
    );
    const request: Request = {
      model: 'gemini-2.5-flash',
      messages: [Message.user('Weather in Paris?')],
      tools: [weather],
      toolChoice: { mode: 'named', toolName: 'get_weather' },
    };
    const first = await adapter.complete(request);
    expect(lastBody()).toMatchObject({
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Current weather for a city',
              parametersJsonSchema: weather.parameters,
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
    });
    expect(first.finishReason).toEqual({ reason: 'tool_calls', raw: 'STOP' });
    const call = first.toolCalls[0]!;
    expect(call).toMatchObject({
      toolName: 'get_weather',
      arguments: { city: 'Paris' },
      argumentsJson: '{"city":"Paris"}',
    });
    // Gemini gave no id: a synthetic one links the result to the call.
    expect(call.toolCallId).toMatch(/^call_[0-9a-f-]{36}$/);

    await adapter.complete({
      ...request,
      toolChoice: { mode: 'auto' },
      // No toolName on the result: the adapter finds the function name from the call.
      messages: [...request.messages, first.message, Message.toolResult(call.toolCallId, '22°C')],
    });
    expect(lastBody().contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { result: '22°C' } } }] },
    ]);
    expect(lastBody().toolConfig).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
  });

  it.each([
    ['none', { mode: 'none' }, { mode: 'NONE' }],
    ['required', { mode: 'required' }, { mode: 'ANY' }],
  ] as const)('maps tool choice %s', async (_name, toolChoice, expected) => {
    server.enqueue(geminiJsonReply({ parts: [{ text: 'ok' }], finishReason: 'STOP' }));
    await adapter.complete({
      model: 'gemini-2.5-pro',
      messages: [Message.user('x')],
      tools: [weather],
      toolChoice,
    });
    expect(lastBody().toolConfig).toEqual({ functionCallingConfig: expected });
  });

  it('keeps Gemini call ids, returns parallel calls in order, and answers them in one user turn', async () => {
    server.enqueue(
      geminiJsonReply({
        parts: [
          { functionCall: { id: 'fc-a', name: 'get_weather', args: { city: 'Paris' } } },
          { functionCall: { id: 'fc-b', name: 'get_weather', args: { city: 'Tokyo' } } },
        ],
        finishReason: 'STOP',
      }),
      geminiJsonReply({ parts: [{ text: 'Both sunny.' }], finishReason: 'STOP' }),
    );
    const first = await adapter.complete({
      model: 'gemini-2.5-pro',
      messages: [Message.user('both')],
      tools: [weather],
    });
    expect(first.toolCalls.map((c) => [c.toolCallId, c.arguments])).toEqual([
      ['fc-a', { city: 'Paris' }],
      ['fc-b', { city: 'Tokyo' }],
    ]);
    await adapter.complete({
      model: 'gemini-2.5-pro',
      messages: [
        Message.user('both'),
        first.message,
        Message.toolResult('fc-a', 'sunny', false, 'get_weather'),
        Message.toolResult('fc-b', 'boom', true, 'get_weather'),
      ],
    });
    expect(lastBody().contents).toEqual([
      { role: 'user', parts: [{ text: 'both' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { id: 'fc-a', name: 'get_weather', args: { city: 'Paris' } } },
          { functionCall: { id: 'fc-b', name: 'get_weather', args: { city: 'Tokyo' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'fc-a', name: 'get_weather', response: { result: 'sunny' } } },
          { functionResponse: { id: 'fc-b', name: 'get_weather', response: { error: 'boom' } } },
        ],
      },
    ]);
  });

  it('asks for thoughts, maps thought parts and thoughtsTokenCount, and sends thought signatures back', async () => {
    server.enqueue(
      geminiJsonReply({
        parts: [
          { text: 'Compare digits.', thought: true },
          { functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'c2lnLTE=' },
        ],
        finishReason: 'STOP',
        usage: { prompt: 10, candidates: 5, thoughts: 40 },
      }),
      geminiJsonReply({ parts: [{ text: 'ok' }], finishReason: 'STOP' }),
    );
    const first = await adapter.complete({
      model: 'gemini-2.5-pro',
      messages: [Message.user('q')],
      tools: [weather],
      reasoningEffort: 'low',
    });
    expect(lastBody().generationConfig).toEqual({
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
    });
    expect(first.reasoning).toBe('Compare digits.');
    expect(first.usage).toMatchObject({
      inputTokens: 10,
      outputTokens: 45,
      reasoningTokens: 40,
      totalTokens: 55,
    });

    const call = first.toolCalls[0]!;
    await adapter.complete({
      model: 'gemini-2.5-pro',
      messages: [
        Message.user('q'),
        first.message,
        Message.toolResult(call.toolCallId, 'cold', false, 'get_weather'),
      ],
    });
    expect((lastBody().contents as unknown[])[1]).toEqual({
      role: 'model',
      parts: [
        { text: 'Compare digits.', thought: true },
        { functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'c2lnLTE=' },
      ],
    });
  });

  it('uses a thinking level for Gemini 3 models', async () => {
    server.enqueue(geminiJsonReply({ parts: [{ text: 'ok' }], finishReason: 'STOP' }));
    await adapter.complete({
      model: 'gemini-3-pro-preview',
      messages: [Message.user('x')],
      reasoningEffort: 'high',
    });
    expect(lastBody().generationConfig).toEqual({
      thinkingConfig: { thinkingLevel: 'HIGH', includeThoughts: true },
    });
  });

  it('asks for JSON with a response JSON schema', async () => {
    const schema = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } } };
    server.enqueue(geminiJsonReply({ parts: [{ text: '{"name":"Alice","age":30}' }], finishReason: 'STOP' }));
    const response = await adapter.complete({
      model: 'gemini-2.5-pro',
      messages: [Message.user('Alice is 30')],
      responseFormat: { type: 'json_schema', jsonSchema: schema },
    });
    expect(lastBody().generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    });
    expect(JSON.parse(response.text)).toEqual({ name: 'Alice', age: 30 });
  });

  it.each([
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', 'error'],
  ])('maps finish reason %s to %s', async (raw, reason) => {
    server.enqueue(geminiJsonReply({ parts: [{ text: 'x' }], finishReason: raw }));
    const response = await adapter.complete({ model: 'gemini-2.5-pro', messages: [Message.user('x')] });
    expect(response.finishReason).toEqual({ reason, raw });
  });

  it('sends images inline and by URI, and merges developer text into the system instruction', async () => {
    server.enqueue(geminiJsonReply({ parts: [{ text: 'ok' }], finishReason: 'STOP' }));
    await adapter.complete({
      model: 'gemini-2.5-pro',
      systemPrompt: 'You are terse.',
      messages: [
        Message.developer('Describe images.'),
        {
          role: 'user',
          content: [
            { kind: 'text', text: 'What is this?' },
            { kind: 'image', data: 'AAAA', mediaType: 'image/jpeg' },
            { kind: 'image', url: 'https://example.com/cat.png' },
          ],
        },
      ],
      providerOptions: { gemini: { seed: 7 } },
    });
    expect(lastBody()).toMatchObject({
      systemInstruction: { parts: [{ text: 'You are terse.\n\nDescribe images.' }] },
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'What is this?' },
            { inlineData: { mimeType: 'image/jpeg', data: 'AAAA' } },
            { fileData: { fileUri: 'https://example.com/cat.png', mimeType: 'image/png' } },
          ],
        },
      ],
      generationConfig: { seed: 7 },
    });
  });
});

describe('GeminiAdapter configuration', () => {
  it('fails at the first call, naming GEMINI_API_KEY, when no key is configured', async () => {
    vi.stubEnv('GEMINI_API_KEY', '');
    vi.stubEnv('GOOGLE_API_KEY', '');
    const keyless = new GeminiAdapter({ baseURL: server.origin });
    await expect(
      keyless.complete({ model: 'gemini-2.5-pro', messages: [Message.user('x')] }),
    ).rejects.toMatchObject({
      name: 'ConfigurationError',
      message: expect.stringContaining('GEMINI_API_KEY'),
    });
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    ['GEMINI_API_KEY', 'GEMINI_BASE_URL'],
    ['GOOGLE_API_KEY', 'GOOGLE_GEMINI_BASE_URL'],
  ])('reads %s and %s from the environment', async (keyVar, urlVar) => {
    vi.stubEnv('GEMINI_API_KEY', '');
    vi.stubEnv('GOOGLE_API_KEY', '');
    vi.stubEnv('GEMINI_BASE_URL', '');
    vi.stubEnv('GOOGLE_GEMINI_BASE_URL', '');
    vi.stubEnv(keyVar, FAKE_GEMINI_KEY);
    vi.stubEnv(urlVar, server.origin);
    server.enqueue(geminiJsonReply({ parts: [{ text: 'from env' }], finishReason: 'STOP' }));
    const response = await new GeminiAdapter().complete({
      model: 'gemini-2.5-pro',
      messages: [Message.user('x')],
    });
    expect(response.text).toBe('from env');
  });

  it.each([
    ['GEMINI_API_KEY', 'GEMINI_BASE_URL'],
    ['GOOGLE_API_KEY', 'GOOGLE_GEMINI_BASE_URL'],
  ])('is built by the core’s adaptersFromEnv from %s and %s', async (keyVar, urlVar) => {
    const env = { [keyVar]: FAKE_GEMINI_KEY, [urlVar]: server.origin };
    const gemini = adaptersFromEnv({ env, dotenv: false }).find((a) => a.name === 'gemini');
    server.enqueue(geminiJsonReply({ parts: [{ text: 'via adaptersFromEnv' }], finishReason: 'STOP' }));
    const response = await gemini!.complete({ model: 'gemini-2.5-pro', messages: [Message.user('x')] });
    expect(response.text).toBe('via adaptersFromEnv');
  });

  it.each([
    ['gemini-2.5-pro', true],
    ['gemini-3-flash-preview', true],
    ['gpt-5.2', false],
  ])('claims model %s: %s', (model, expected) => {
    expect(adapter.supportsModel(model)).toBe(expected);
  });
});
