import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LLMClient } from '../../src/llm/client.js';
import { RequestTimeoutError } from '../../src/llm/errors/request-timeout-error.js';
import type { ProviderAdapter } from '../../src/llm/provider-adapter.js';
import { AnthropicAdapter } from '../../src/llm/providers/anthropic/anthropic-adapter.js';
import { GeminiAdapter } from '../../src/llm/providers/gemini/gemini-adapter.js';
import { OpenAIAdapter } from '../../src/llm/providers/openai/openai-adapter.js';
import { OpenAICompatibleAdapter } from '../../src/llm/providers/openai-compatible/openai-compatible-adapter.js';
import { ScriptedAdapter } from '../../src/llm/testing/scripted-adapter.js';
import { DEFAULT_TIMEOUTS, resolveTimeouts } from '../../src/llm/timeout-config.js';
import type { TimeoutConfig } from '../../src/llm/types.js';
import {
  anthropicStreamEvents,
  FAKE_ANTHROPIC_KEY,
  startFakeAnthropicServer,
} from '../helpers/fake-anthropic-server.js';
import { FAKE_GEMINI_KEY, geminiSseReply, startFakeGeminiServer } from '../helpers/fake-gemini-server.js';
import {
  chatChunk,
  chatSseReply,
  FAKE_OPENAI_KEY,
  messageItem,
  responsesSseReply,
  responsesStream,
  startFakeOpenAIServer,
  streamedMessageEvents,
} from '../helpers/fake-openai-server.js';
import { collectEvents, rejectionOf } from '../helpers/llm-fixtures.js';
import type { ScriptedReply, ScriptedServer } from '../helpers/sse.js';

describe('TimeoutConfig', () => {
  it('has the documented defaults and lets later layers override earlier ones', () => {
    expect(DEFAULT_TIMEOUTS).toEqual({ connectMs: 10_000, requestMs: 120_000, streamReadMs: 30_000 });
    expect(resolveTimeouts({ requestMs: 5 }, undefined, { requestMs: 7, streamReadMs: undefined })).toEqual({
      connectMs: 10_000,
      requestMs: 7,
      streamReadMs: 30_000,
    });
  });
});

interface HangingProvider {
  name: string;
  model: string;
  start(): Promise<{ server: ScriptedServer; adapter: ProviderAdapter }>;
  /** A stream that sends its first events, then keeps the connection open and says nothing more. */
  stalledStream(): ScriptedReply;
}

const providers: HangingProvider[] = [
  {
    name: 'anthropic',
    model: 'claude-sonnet-4-6',
    async start() {
      const server = await startFakeAnthropicServer();
      return {
        server,
        adapter: new AnthropicAdapter({ apiKey: FAKE_ANTHROPIC_KEY, baseURL: server.origin, env: {} }),
      };
    },
    stalledStream: () => ({
      kind: 'sse',
      events: anthropicStreamEvents({ content: [{ type: 'text', text: 'Hello there' }] }),
      hangAfter: 3,
    }),
  },
  {
    name: 'openai',
    model: 'gpt-5.2',
    async start() {
      const server = await startFakeOpenAIServer();
      return {
        server,
        adapter: new OpenAIAdapter({ apiKey: FAKE_OPENAI_KEY, baseURL: server.baseURL, env: {} }),
      };
    },
    stalledStream: () =>
      responsesSseReply(
        responsesStream(streamedMessageEvents(0, ['Hel', 'lo']), { output: [messageItem('Hello')] }),
        { hangAfter: 4 },
      ),
  },
  {
    name: 'gemini',
    model: 'gemini-2.5-pro',
    async start() {
      const server = await startFakeGeminiServer();
      return {
        server,
        adapter: new GeminiAdapter({ apiKey: FAKE_GEMINI_KEY, baseURL: server.origin, env: {} }),
      };
    },
    stalledStream: () =>
      geminiSseReply([{ parts: [{ text: 'Hel' }] }, { parts: [{ text: 'lo' }], finishReason: 'STOP' }], {
        hangAfter: 1,
      }),
  },
  {
    name: 'openai-compatible',
    model: 'local-model',
    async start() {
      const server = await startFakeOpenAIServer();
      return {
        server,
        adapter: new OpenAICompatibleAdapter({ apiKey: FAKE_OPENAI_KEY, baseURL: server.baseURL, env: {} }),
      };
    },
    stalledStream: () =>
      chatSseReply(
        [
          chatChunk({ role: 'assistant', content: 'Hel' }),
          chatChunk({ content: 'lo' }),
          chatChunk({}, 'stop'),
        ],
        {
          hangAfter: 1,
        },
      ),
  },
];

const LIMIT = 300;
/** A hang guard: the machine is shared, but a stalled stream must not wait anywhere near the 30 s default. */
const SLACK = 12_000;

describe.each(providers)('timeouts against the fake $name server', (provider) => {
  let server: ScriptedServer;
  let adapter: ProviderAdapter;
  beforeAll(async () => {
    ({ server, adapter } = await provider.start());
  });
  afterAll(() => server.close());

  async function timed(
    client: LLMClient,
    reply: ScriptedReply,
    call: Partial<TimeoutConfig> | undefined,
    stream: boolean,
  ) {
    server.enqueue(reply);
    const request = {
      model: provider.model,
      messages: [{ role: 'user' as const, content: [{ kind: 'text' as const, text: 'Hi' }] }],
    };
    const options = call ? { timeouts: call } : {};
    const started = Date.now();
    const error = await rejectionOf(
      stream ? collectEvents(client.stream(request, options)) : client.complete(request, options),
    );
    return { error, elapsed: Date.now() - started };
  }

  it('fails a stream that stops sending with RequestTimeoutError within the client’s stream-read limit', async () => {
    const client = new LLMClient({ adapters: [adapter], timeouts: { streamReadMs: LIMIT } });
    const { error, elapsed } = await timed(client, provider.stalledStream(), undefined, true);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.provider).toBe(provider.name);
    expect(elapsed).toBeGreaterThanOrEqual(LIMIT - 50);
    expect(elapsed).toBeLessThan(LIMIT + SLACK);
  });

  it('lets a call’s stream-read limit override the client’s', async () => {
    const client = new LLMClient({ adapters: [adapter], timeouts: { streamReadMs: 60_000 } });
    const { error, elapsed } = await timed(client, provider.stalledStream(), { streamReadMs: LIMIT }, true);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(elapsed).toBeLessThan(LIMIT + SLACK);
  });

  it('bounds a server that never answers: requestMs for complete, connectMs for a stream', async () => {
    const client = new LLMClient({ adapters: [adapter] });
    const complete = await timed(client, { kind: 'hang' }, { requestMs: LIMIT }, false);
    expect(complete.error).toBeInstanceOf(RequestTimeoutError);
    expect(complete.elapsed).toBeLessThan(LIMIT + SLACK);
    const stream = await timed(client, { kind: 'hang' }, { connectMs: LIMIT }, true);
    expect(stream.error).toBeInstanceOf(RequestTimeoutError);
    expect(stream.elapsed).toBeLessThan(LIMIT + SLACK);
  });

  it('reaches the adapter from generate’s per-call timeouts', async () => {
    const client = new LLMClient({ adapters: [adapter] });
    server.enqueue({ kind: 'hang' });
    const started = Date.now();
    const error = await rejectionOf(
      client.generate({ model: provider.model, prompt: 'Hi', timeouts: { requestMs: LIMIT } }),
    );
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(Date.now() - started).toBeLessThan(LIMIT + SLACK);
  });

  it('reaches the adapter from generateObject’s per-call timeouts', async () => {
    const client = new LLMClient({ adapters: [adapter] });
    server.enqueue({ kind: 'hang' });
    const started = Date.now();
    const error = await rejectionOf(
      client.generateObject({
        model: provider.model,
        prompt: 'Hi',
        schema: { type: 'object' },
        timeouts: { requestMs: LIMIT },
      }),
    );
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(Date.now() - started).toBeLessThan(LIMIT + SLACK);
  });
});

describe('generate’s total timeout', () => {
  it('bounds the whole tool loop, each call within its own limit', async () => {
    const adapter = new ScriptedAdapter({
      turns: [
        { toolCalls: [{ name: 'slow', arguments: {} }], delayMs: 150 },
        { text: 'never', delayMs: 150 },
      ],
    });
    const client = new LLMClient({ adapters: [adapter] });
    const started = Date.now();
    const error = await rejectionOf(
      client.generate({
        model: 'm',
        prompt: 'x',
        timeoutMs: 1_000,
        totalTimeoutMs: 350,
        tools: [
          {
            name: 'slow',
            description: 'takes its time',
            parameters: { type: 'object' },
            execute: () => new Promise((resolve) => setTimeout(() => resolve('done'), 150)),
          },
        ],
      }),
    );
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.message).toMatch(/350 ms/);
    expect(Date.now() - started).toBeLessThan(350 + SLACK);
    expect(adapter.calls).toHaveLength(2);
  });

  it('also bounds streamGenerateWithTools', async () => {
    const adapter = new ScriptedAdapter({ turns: [{ text: 'slow', delayMs: 2_000 }] });
    const client = new LLMClient({ adapters: [adapter] });
    const error = await rejectionOf(
      collectEvents(client.streamGenerateWithTools({ model: 'm', prompt: 'x', totalTimeoutMs: 200 })),
    );
    expect(error).toBeInstanceOf(RequestTimeoutError);
  });
});
