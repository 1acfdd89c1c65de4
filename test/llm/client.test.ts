import { afterEach, describe, expect, it, vi } from 'vitest';
import { LLMClient } from '../../src/llm/client.js';
import { AbortError } from '../../src/llm/errors/abort-error.js';
import { ConfigurationError } from '../../src/llm/errors/configuration-error.js';
import { RequestTimeoutError } from '../../src/llm/errors/request-timeout-error.js';
import { ServerError } from '../../src/llm/errors/server-error.js';
import { StreamError } from '../../src/llm/errors/stream-error.js';
import { Message } from '../../src/llm/message.js';
import type { Middleware } from '../../src/llm/middleware/middleware.js';
import type { ProviderAdapter } from '../../src/llm/provider-adapter.js';
import { ScriptedAdapter } from '../../src/llm/testing/scripted-adapter.js';
import type { Request, StreamEvent } from '../../src/llm/types.js';

// A test that fails on fake timers must not leave them to the next.
afterEach(() => {
  vi.useRealTimers();
});

const ask = (model: string, provider?: string): Request => ({
  model,
  messages: [Message.user('hi')],
  ...(provider ? { provider } : {}),
});

function named(name: string, prefix?: string): ScriptedAdapter {
  return new ScriptedAdapter({
    name,
    turns: () => `from ${name}`,
    supportsModel: (model) => (prefix ? model.startsWith(prefix) : false),
  });
}

describe('LLMClient routing', () => {
  const client = new LLMClient({
    adapters: [named('openai', 'gpt-'), named('anthropic', 'claude-'), named('gemini')],
  });

  it.each([
    ['claude-sonnet-4-6', undefined, 'anthropic', 'claude-sonnet-4-6'],
    ['gpt-5.2', undefined, 'openai', 'gpt-5.2'],
    ['gemini-2.5-pro', undefined, 'gemini', 'gemini-2.5-pro'],
    ['sonnet', undefined, 'anthropic', 'claude-sonnet-4-6'],
    ['gemini-pro', undefined, 'gemini', 'gemini-3-pro-preview'],
    ['claude-sonnet-4-6', 'gemini', 'gemini', 'claude-sonnet-4-6'],
    ['my-local-model', undefined, 'openai', 'my-local-model'],
  ])('%s (provider %s) goes to %s as %s', async (model, provider, expected, sentModel) => {
    const response = await client.complete(ask(model, provider));
    expect(response.text).toBe(`from ${expected}`);
    expect(response.model).toBe(sentModel);
  });

  it('refuses a model whose provider is not configured, naming it', async () => {
    const only = new LLMClient({ adapters: [named('openai', 'gpt-')] });
    await expect(only.complete(ask('claude-opus-4-6'))).rejects.toThrow(
      /provider "anthropic", which is not configured/,
    );
    await expect(only.complete(ask('x', 'nope'))).rejects.toThrow(ConfigurationError);
    await expect(new LLMClient().complete(ask('whatever'))).rejects.toThrow(/no default provider/);
  });

  it('adds a deprecation warning for retiring models', async () => {
    const response = await client.complete(ask('claude-sonnet-4-5'));
    expect(response.warnings.join(' ')).toMatch(/end-of-life/);
  });

  it('throws after close(), which is idempotent and closes adapters', async () => {
    let closed = 0;
    const adapter: ProviderAdapter = {
      ...named('x'),
      name: 'x',
      complete: named('x').complete,
      stream: named('x').stream,
      close: async () => void closed++,
    };
    const c = new LLMClient({ adapters: [adapter] });
    await c.close();
    await c.close();
    expect(closed).toBe(1);
    await expect(c.complete(ask('m'))).rejects.toThrow(/closed/);
  });
});

describe('LLMClient middleware', () => {
  it('runs beforeRequest in order, afterResponse and wrapStream in reverse', async () => {
    const log: string[] = [];
    const mw = (id: string): Middleware => ({
      beforeRequest: (request) => {
        log.push(`before ${id}`);
        return { ...request, metadata: { ...request.metadata, [id]: true } };
      },
      afterResponse: (response) => {
        log.push(`after ${id}`);
        return response;
      },
      async *wrapStream(stream) {
        for await (const event of stream) {
          if (event.type === 'finish') log.push(`stream ${id}`);
          yield event;
        }
      },
    });
    const adapter = new ScriptedAdapter({ turns: () => 'ok' });
    const client = new LLMClient({ adapters: [adapter], middleware: [mw('a'), mw('b')] });
    await client.complete(ask('m'));
    for await (const _ of client.stream(ask('m'))) {
      // drain
    }
    expect(log).toEqual([
      'before a',
      'before b',
      'after b',
      'after a',
      'before a',
      'before b',
      'stream b',
      'stream a',
    ]);
    expect(adapter.calls[0]!.request.metadata).toEqual({ a: true, b: true });
  });
});

describe('LLMClient retries, timeouts and streams', () => {
  const fast = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 10 };

  it('retries a retryable failure of complete()', async () => {
    const adapter = new ScriptedAdapter({ turns: [{ error: new ServerError('down') }, 'recovered'] });
    const response = await new LLMClient({ adapters: [adapter], retryPolicy: fast }).complete(ask('m'));
    expect(response.text).toBe('recovered');
    expect(adapter.calls).toHaveLength(2);
  });

  it('retries a stream that failed before yielding anything', async () => {
    const adapter = new ScriptedAdapter({ turns: [{ error: new ServerError('down') }, 'streamed'] });
    const events: StreamEvent[] = [];
    for await (const event of new LLMClient({ adapters: [adapter], retryPolicy: fast }).stream(ask('m')))
      events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'finish', response: { text: 'streamed' } });
  });

  it('does not retry a stream after partial data, and yields an error event before throwing', async () => {
    let calls = 0;
    const adapter: ProviderAdapter = {
      name: 'broken',
      complete: () => Promise.reject(new Error('unused')),
      async *stream() {
        calls++;
        yield { type: 'stream_start' };
        yield { type: 'text_start', textId: '0' };
        throw new StreamError('cut');
      },
    };
    const events: StreamEvent[] = [];
    const error = await (async () => {
      for await (const event of new LLMClient({ adapters: [adapter], retryPolicy: fast }).stream(ask('m')))
        events.push(event);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamError);
    expect(events.map((event) => event.type)).toEqual(['stream_start', 'text_start', 'error']);
    expect(calls).toBe(1);
  });

  it.each([
    ['complete', false],
    ['stream', true],
  ])(
    'an abort during the retry backoff of %s is an AbortError (stream: after an error event)',
    async (_kind, streaming) => {
      const adapter = new ScriptedAdapter({ turns: () => ({ error: new ServerError('down') }) });
      const client = new LLMClient({
        adapters: [adapter],
        retryPolicy: { baseDelayMs: 10_000, jitter: false },
      });
      // On fake timers: the abort at 20 ms ends the 10 s backoff at 20 ms exactly.
      vi.useFakeTimers();
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 20);
      const events: StreamEvent[] = [];
      const started = Date.now();
      const pending = (
        streaming
          ? (async () => {
              for await (const event of client.stream(ask('m'), { signal: controller.signal }))
                events.push(event);
            })()
          : client.complete(ask('m'), { signal: controller.signal })
      ).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(20);
      const error = await pending;
      const elapsed = Date.now() - started;
      vi.useRealTimers();
      expect(error).toBeInstanceOf(AbortError);
      expect(elapsed).toBe(20);
      if (streaming) expect(events).toEqual([{ type: 'error', error }]);
    },
  );

  it('turns a per-request timeout into RequestTimeoutError', async () => {
    const adapter = new ScriptedAdapter({ turns: [{ text: 'late', delayMs: 5000 }] });
    vi.useFakeTimers();
    const started = Date.now();
    const pending = new LLMClient({ adapters: [adapter] })
      .complete(ask('m'), { timeoutMs: 50 })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(50);
    const error = await pending;
    const elapsed = Date.now() - started;
    vi.useRealTimers();
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(elapsed).toBe(50);
  });
});
