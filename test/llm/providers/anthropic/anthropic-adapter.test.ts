import { getEventListeners } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LLMClient } from '../../../../src/llm/client.js';
import { estimateCost } from '../../../../src/llm/cost.js';
import { AbortError } from '../../../../src/llm/errors/abort-error.js';
import { AuthenticationError } from '../../../../src/llm/errors/authentication-error.js';
import { ConfigurationError } from '../../../../src/llm/errors/configuration-error.js';
import { ContextLengthError } from '../../../../src/llm/errors/context-length-error.js';
import { InvalidRequestError } from '../../../../src/llm/errors/invalid-request-error.js';
import { NotFoundError } from '../../../../src/llm/errors/not-found-error.js';
import { RateLimitError } from '../../../../src/llm/errors/rate-limit-error.js';
import { RequestTimeoutError } from '../../../../src/llm/errors/request-timeout-error.js';
import { ServerError } from '../../../../src/llm/errors/server-error.js';
import { StreamError } from '../../../../src/llm/errors/stream-error.js';
import { Message } from '../../../../src/llm/message.js';
import { AnthropicAdapter } from '../../../../src/llm/providers/anthropic/anthropic-adapter.js';
import type { StreamEvent } from '../../../../src/llm/types.js';
import {
  anthropicErrorEvent,
  anthropicErrorReply,
  anthropicJsonReply,
  anthropicStreamEvents,
  anthropicStreamReply,
  FAKE_ANTHROPIC_KEY,
  startFakeAnthropicServer,
} from '../../../helpers/fake-anthropic-server.js';
import type { ScriptedServer } from '../../../helpers/sse.js';

let server: ScriptedServer;
const retries: Array<{ attempt: number; delayMs: number }> = [];

beforeAll(async () => {
  server = await startFakeAnthropicServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
  retries.length = 0;
});

function client(apiKey = FAKE_ANTHROPIC_KEY): LLMClient {
  return new LLMClient({
    adapters: [new AnthropicAdapter({ apiKey, baseURL: server.origin, env: {} })],
    retryPolicy: { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 1000 },
    onRetry: (attempt, _error, delayMs) => retries.push({ attempt, delayMs }),
  });
}

// biome-ignore lint/suspicious/noExplicitAny: recorded wire bodies are navigated freely and asserted by value.
type Body = Record<string, any>;
const body = (index = 0): Body => server.requests[index]!.body as Body;
const MODEL = 'claude-sonnet-4-6';

async function collect(
  events: AsyncIterable<StreamEvent>,
): Promise<{ events: StreamEvent[]; error?: unknown }> {
  const seen: StreamEvent[] = [];
  try {
    for await (const event of events) seen.push(event);
    return { events: seen };
  } catch (error) {
    return { events: seen, error };
  }
}

describe('AnthropicAdapter against a local Messages API', () => {
  it('sends a plain request with system, cache breakpoints and SDK 1.x headers, and maps the reply', async () => {
    server.enqueue(anthropicJsonReply({ content: [{ type: 'text', text: 'Hello there' }] }));
    const response = await client().complete({
      model: MODEL,
      systemPrompt: 'Be brief.',
      messages: [Message.system('Extra rule.'), Message.user('Hi')],
    });
    const request = server.requests[0]!;
    expect(request.url).toBe('/v1/messages');
    expect(request.headers.authorization).toBe(`Bearer ${FAKE_ANTHROPIC_KEY}`);
    expect(request.headers['anthropic-version']).toBe('2026-10-21');
    expect(request.headers['anthropic-beta']).toContain('prompt-caching-2024-07-31');
    expect(request.headers['x-stainless-retry-count']).toBe('0');
    expect(body()).toEqual({
      model: MODEL,
      max_tokens: 4096,
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Extra rule.', cache_control: { type: 'ephemeral' } },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] },
      ],
    });
    expect(response).toMatchObject({
      id: 'msg_fake_01',
      provider: 'anthropic',
      text: 'Hello there',
      finishReason: { reason: 'stop', raw: 'end_turn' },
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
    });
  });

  it('leaves caching off when providerOptions.anthropic.autoCache is false', async () => {
    server.enqueue(anthropicJsonReply({ content: [{ type: 'text', text: 'ok' }] }));
    await client().complete({
      model: MODEL,
      messages: [Message.user('Hi')],
      providerOptions: { anthropic: { autoCache: false } },
    });
    expect(JSON.stringify(body())).not.toContain('cache_control');
    expect(server.requests[0]!.headers['anthropic-beta']).toBeUndefined();
  });

  it.each([
    ['beta_headers (the spec)', { beta_headers: ['files-api-2025-04-14', 'context-1m-2025-08-07'] }],
    ['betaHeaders', { betaHeaders: ['files-api-2025-04-14', 'context-1m-2025-08-07'] }],
  ])('sends providerOptions.anthropic.%s as the anthropic-beta header', async (_name, options) => {
    server.enqueue(anthropicJsonReply({ content: [{ type: 'text', text: 'ok' }] }));
    await client().complete({
      model: MODEL,
      messages: [Message.user('Hi')],
      providerOptions: { anthropic: { ...options, auto_cache: false } },
    });
    expect(server.requests[0]!.headers['anthropic-beta']).toBe('files-api-2025-04-14,context-1m-2025-08-07');
    expect(JSON.stringify(body())).not.toContain('files-api');
  });

  it('streams text as start/delta/end whose deltas concatenate to the final text', async () => {
    server.enqueue(
      anthropicStreamReply({ content: [{ type: 'text', text: 'Streaming works fine' }] }, { chunkSize: 5 }),
    );
    const { events, error } = await collect(
      client().stream({ model: MODEL, messages: [Message.user('Hi')] }),
    );
    expect(error).toBeUndefined();
    expect(body().stream).toBe(true);
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('stream_start');
    expect(types[1]).toBe('text_start');
    expect(types.at(-2)).toBe('text_end');
    expect(types.at(-1)).toBe('finish');
    const deltas = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : []));
    expect(deltas.length).toBe(4);
    const finish = events.at(-1) as Extract<StreamEvent, { type: 'finish' }>;
    expect(deltas.join('')).toBe(finish.response.text);
    expect(finish.response.text).toBe('Streaming works fine');
    expect(finish.finishReason).toEqual({ reason: 'stop', raw: 'end_turn' });
  });

  it('runs a tool round trip: tool_use out, tool_result back in a user turn', async () => {
    server.enqueue(
      anthropicJsonReply({
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
        stop_reason: 'tool_use',
      }),
      anthropicJsonReply({ content: [{ type: 'text', text: 'It is sunny.' }] }),
    );
    const result = await client().generate({
      model: MODEL,
      prompt: 'Weather in Paris?',
      tools: [
        {
          name: 'get_weather',
          description: 'Weather for a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      ],
      toolChoice: { mode: 'auto' },
      toolExecutor: async (call) => `sunny in ${String(call.arguments['city'])}`,
    });
    expect(result.text).toBe('It is sunny.');
    expect(result.steps).toHaveLength(2);
    expect(body(0).tools).toEqual([
      {
        name: 'get_weather',
        description: 'Weather for a city',
        input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        cache_control: { type: 'ephemeral' },
      },
    ]);
    expect(body(0).tool_choice).toEqual({ type: 'auto' });
    expect(body(1).messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: 'sunny in Paris',
            is_error: false,
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
    ]);
  });

  it('executes parallel tool calls concurrently and returns all results in one user turn, in call order', async () => {
    server.enqueue(
      anthropicJsonReply({
        content: [
          { type: 'tool_use', id: 'toolu_a', name: 'slow', input: { n: 1 } },
          { type: 'tool_use', id: 'toolu_b', name: 'slow', input: { n: 2 } },
        ],
        stop_reason: 'tool_use',
      }),
      anthropicJsonReply({ content: [{ type: 'text', text: 'done' }] }),
    );
    let running = 0;
    let maxRunning = 0;
    await client().generate({
      model: MODEL,
      prompt: 'go',
      tools: [{ name: 'slow', description: 'slow tool', parameters: { type: 'object', properties: {} } }],
      toolExecutor: async (call) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await new Promise((resolve) => setTimeout(resolve, call.arguments['n'] === 1 ? 40 : 5));
        running--;
        return `r${String(call.arguments['n'])}`;
      },
    });
    expect(maxRunning).toBe(2);
    const lastTurn = body(1).messages.at(-1);
    expect(lastTurn.role).toBe('user');
    expect(lastTurn.content.map((block: Body) => [block.tool_use_id, block.content])).toEqual([
      ['toolu_a', 'r1'],
      ['toolu_b', 'r2'],
    ]);
  });

  it('streams tool-call arguments as deltas and ends with the parsed call', async () => {
    server.enqueue(
      anthropicStreamReply(
        {
          content: [
            { type: 'tool_use', id: 'toolu_s', name: 'search', input: { query: 'xstate actors', limit: 3 } },
          ],
          stop_reason: 'tool_use',
        },
        { chunkSize: 6 },
      ),
    );
    const { events } = await collect(client().stream({ model: MODEL, messages: [Message.user('find')] }));
    const start = events.find((event) => event.type === 'tool_call_start');
    expect(start).toEqual({ type: 'tool_call_start', toolCallId: 'toolu_s', toolName: 'search' });
    const deltas = events.flatMap((event) =>
      event.type === 'tool_call_delta' ? [event.argumentsDelta] : [],
    );
    expect(deltas.length).toBeGreaterThan(2);
    expect(JSON.parse(deltas.join(''))).toEqual({ query: 'xstate actors', limit: 3 });
    const end = events.find((event) => event.type === 'tool_call_end');
    expect(end).toMatchObject({
      toolCall: { toolCallId: 'toolu_s', arguments: { query: 'xstate actors', limit: 3 } },
    });
    const finish = events.at(-1) as Extract<StreamEvent, { type: 'finish' }>;
    expect(finish.finishReason.reason).toBe('tool_calls');
    expect(finish.response.toolCalls).toHaveLength(1);
  });

  it('maps reasoning effort to a thinking budget and round-trips thinking with its signature', async () => {
    server.enqueue(
      anthropicJsonReply({
        content: [
          { type: 'thinking', thinking: 'Let me think.', signature: 'sig-abc' },
          { type: 'redacted_thinking', data: 'opaque==' },
          { type: 'text', text: '42' },
        ],
        usage: { input_tokens: 12, output_tokens: 40 },
      }),
      anthropicJsonReply({ content: [{ type: 'text', text: 'ok' }] }),
    );
    const c = client();
    const first = await c.complete({ model: MODEL, reasoningEffort: 'high', messages: [Message.user('Q?')] });
    expect(body(0).thinking).toEqual({ type: 'enabled', budget_tokens: 24576 });
    expect(body(0).max_tokens).toBe(24576 + 4096);
    expect(first.reasoning).toBe('Let me think.');
    expect(first.message.content[0]).toEqual({
      kind: 'thinking',
      text: 'Let me think.',
      signature: 'sig-abc',
    });
    await c.complete({ model: MODEL, messages: [Message.user('Q?'), first.message, Message.user('And?')] });
    expect(body(1).messages[1].content).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: 'sig-abc' },
      { type: 'redacted_thinking', data: 'opaque==' },
      { type: 'text', text: '42' },
    ]);
  });

  it('streams thinking deltas and keeps the signature from signature_delta', async () => {
    server.enqueue(
      anthropicStreamReply({
        content: [
          { type: 'thinking', thinking: 'Considering options', signature: 'sig-stream' },
          { type: 'text', text: 'Answer' },
        ],
      }),
    );
    const { events } = await collect(
      client().stream({ model: MODEL, reasoningEffort: 'low', messages: [Message.user('Q')] }),
    );
    const reasoning = events.flatMap((event) => (event.type === 'reasoning_delta' ? [event.delta] : []));
    expect(reasoning.join('')).toBe('Considering options');
    expect(events.find((event) => event.type === 'reasoning_end')).toMatchObject({ signature: 'sig-stream' });
    const finish = events.at(-1) as Extract<StreamEvent, { type: 'finish' }>;
    expect(finish.response.message.content[0]).toEqual({
      kind: 'thinking',
      text: 'Considering options',
      signature: 'sig-stream',
    });
  });

  it('asks for structured output through output_config.format and parses it', async () => {
    server.enqueue(anthropicJsonReply({ content: [{ type: 'text', text: '{"name":"Alice","age":30}' }] }));
    const result = await client().generateObject({
      model: MODEL,
      prompt: 'Alice is 30.',
      schema: z.object({ name: z.string(), age: z.number() }),
    });
    expect(result.output).toEqual({ name: 'Alice', age: 30 });
    expect(body().output_config.format).toMatchObject({
      type: 'json_schema',
      schema: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'number' } } },
    });
  });

  it('reports cache read and write tokens (input includes them) and prices them', async () => {
    server.enqueue(
      anthropicJsonReply({
        content: [{ type: 'text', text: 'cached' }],
        usage: {
          input_tokens: 10,
          output_tokens: 20,
          cache_read_input_tokens: 800,
          cache_creation_input_tokens: 100,
        },
      }),
    );
    const response = await client().complete({ model: MODEL, messages: [Message.user('Hi')] });
    expect(response.usage).toMatchObject({
      inputTokens: 910,
      outputTokens: 20,
      cacheReadTokens: 800,
      cacheWriteTokens: 100,
    });
    // claude-sonnet-4-6: $3 in, $15 out, reads 0.1×, writes 1.25×.
    expect(estimateCost(MODEL, response.usage)).toBeCloseTo(
      (10 * 3 + 800 * 0.3 + 100 * 3.75 + 20 * 15) / 1e6,
      12,
    );
  });

  it.each([
    [
      '400 invalid request',
      anthropicErrorReply(400, 'invalid_request_error', 'messages: field required'),
      InvalidRequestError,
    ],
    [
      '404 unknown model',
      anthropicErrorReply(404, 'not_found_error', 'model: nonexistent-model-xyz'),
      NotFoundError,
    ],
    [
      '413 request too large',
      anthropicErrorReply(413, 'request_too_large', 'Request exceeds the maximum size'),
      ContextLengthError,
    ],
    [
      '400 prompt too long',
      anthropicErrorReply(400, 'invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum'),
      ContextLengthError,
    ],
  ])('maps %s to a non-retryable typed error', async (_name, reply, errorClass) => {
    server.enqueue(reply);
    const error = await client()
      .complete({ model: MODEL, messages: [Message.user('Hi')] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toMatchObject({ provider: 'anthropic', isRetryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('maps a wrong key to AuthenticationError without retrying', async () => {
    const error = await client('sk-wrong')
      .complete({ model: MODEL, messages: [Message.user('Hi')] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, errorCode: 'authentication_error' });
    expect(server.requests).toHaveLength(1);
  });

  it('honours Retry-After exactly on 429 and then succeeds', async () => {
    server.enqueue(
      anthropicErrorReply(429, 'rate_limit_error', 'Number of requests has exceeded your rate limit', {
        'retry-after': '0.05',
      }),
      anthropicJsonReply({ content: [{ type: 'text', text: 'after wait' }] }),
    );
    const response = await client().complete({ model: MODEL, messages: [Message.user('Hi')] });
    expect(response.text).toBe('after wait');
    expect(retries).toEqual([{ attempt: 1, delayMs: 50 }]);
  });

  it('gives up at once on a Retry-After longer than maxDelay, keeping retryAfterMs', async () => {
    server.enqueue(anthropicErrorReply(429, 'rate_limit_error', 'slow down', { 'retry-after': '120' }));
    const error = await client()
      .complete({ model: MODEL, messages: [Message.user('Hi')] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 120_000, isRetryable: true });
    expect(retries).toEqual([]);
  });

  it('retries 500 and 529 (overloaded) with backoff, then surfaces ServerError', async () => {
    server.enqueue(
      anthropicErrorReply(500, 'api_error', 'Internal server error'),
      anthropicErrorReply(529, 'overloaded_error', 'Overloaded'),
      anthropicErrorReply(500, 'api_error', 'Internal server error'),
    );
    const error = await client()
      .complete({ model: MODEL, messages: [Message.user('Hi')] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(3);
    expect(retries.map((retry) => retry.attempt)).toEqual([1, 2]);
  });

  it('reports a stream that breaks mid-way as StreamError, after an error event, without retrying', async () => {
    server.enqueue(
      anthropicStreamReply({ content: [{ type: 'text', text: 'This will be cut off' }] }, { breakAfter: 4 }),
    );
    const { events, error } = await collect(
      client().stream({ model: MODEL, messages: [Message.user('Hi')] }),
    );
    expect(error).toBeInstanceOf(StreamError);
    expect(events.at(-1)).toEqual({ type: 'error', error });
    expect(events.some((event) => event.type === 'text_delta')).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('maps an in-stream overloaded error event to ServerError', async () => {
    const events = anthropicStreamEvents({ content: [{ type: 'text', text: 'partial answer' }] }).slice(0, 4);
    server.enqueue({
      kind: 'sse',
      events: [...events, anthropicErrorEvent('overloaded_error', 'Overloaded')],
    });
    const stream = client().stream({ model: MODEL, messages: [Message.user('Hi')] });
    const result = await collect(stream);
    expect(result.error).toBeInstanceOf(ServerError);
    expect(result.error).toMatchObject({ errorCode: 'overloaded_error' });
    // After the first event the client taps the adapter's stream: the failure still arrives as one error
    // event followed by the same error thrown, nothing is retried, and the partial response was kept.
    expect(result.events.filter((event) => event.type === 'error')).toEqual([
      { type: 'error', error: result.error },
    ]);
    expect(server.requests).toHaveLength(1);
    expect(stream.partialResponse.text).toBe(
      result.events.map((event) => (event.type === 'text_delta' ? event.delta : '')).join(''),
    );
    expect(stream.partialResponse.text).not.toBe('');
  });

  it('times out a hanging server with RequestTimeoutError (complete and stream)', async () => {
    server.enqueue({ kind: 'hang' }, { kind: 'hang' });
    const c = client();
    const started = Date.now();
    const error = await c
      .complete({ model: MODEL, messages: [Message.user('Hi')] }, { timeoutMs: 150 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(Date.now() - started).toBeLessThan(2000);
    const streamed = await collect(
      c.stream({ model: MODEL, messages: [Message.user('Hi')] }, { timeoutMs: 150 }),
    );
    expect(streamed.error).toBeInstanceOf(RequestTimeoutError);
  });

  it('aborts a hanging request and a stalled stream with AbortError', async () => {
    server.enqueue({ kind: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await client()
      .complete({ model: MODEL, messages: [Message.user('Hi')] }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);

    const events = anthropicStreamEvents({ content: [{ type: 'text', text: 'never finishes' }] });
    server.enqueue({ kind: 'sse', events, hangAfter: 3 });
    const streamController = new AbortController();
    const seen: StreamEvent[] = [];
    let streamError: unknown;
    try {
      for await (const event of client().stream(
        { model: MODEL, messages: [Message.user('Hi')] },
        { signal: streamController.signal },
      )) {
        seen.push(event);
        if (event.type === 'text_start') streamController.abort();
      }
    } catch (e) {
      streamError = e;
    }
    expect(streamError).toBeInstanceOf(AbortError);
  });

  it('fails at the first call, not at construction, when ANTHROPIC_API_KEY is missing', async () => {
    const adapter = new AnthropicAdapter({ baseURL: server.origin, env: {} });
    const c = new LLMClient({ adapters: [adapter] });
    const error = await c.complete({ model: MODEL, messages: [Message.user('Hi')] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain('ANTHROPIC_API_KEY');
    expect(server.requests).toHaveLength(0);
  });
});

describe('AnthropicAdapter and a caller signal shared by many calls', () => {
  // An agent session passes one signal to every call of an input, and the client hands it to the adapter as
  // it is (decision 0041): each call must take its abort listener off it again.
  it('leaves no abort listener on it after complete and stream calls', async () => {
    const caller = new AbortController();
    const llm = client();
    for (let i = 0; i < 12; i++) {
      server.enqueue(anthropicJsonReply({ content: [{ type: 'text', text: `reply ${i}` }] }));
      await llm.complete({ model: MODEL, messages: [Message.user('Hi')] }, { signal: caller.signal });
      server.enqueue(anthropicStreamReply({ content: [{ type: 'text', text: `stream ${i}` }] }));
      await collect(llm.stream({ model: MODEL, messages: [Message.user('Hi')] }, { signal: caller.signal }));
    }
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });
});
