import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LLMClient } from '../../../src/llm/client.js';
import { RateLimitError } from '../../../src/llm/errors/rate-limit-error.js';
import { Message } from '../../../src/llm/message.js';
import { LoggingMiddleware } from '../../../src/llm/middleware/logging-middleware.js';
import { RecordMiddleware } from '../../../src/llm/middleware/record-middleware.js';
import { ReplayMiddleware } from '../../../src/llm/middleware/replay-middleware.js';
import { TokenTrackingMiddleware } from '../../../src/llm/middleware/token-tracking-middleware.js';
import { ScriptedAdapter } from '../../../src/llm/testing/scripted-adapter.js';
import type { StreamEvent, ToolDefinition } from '../../../src/llm/types.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const tool: ToolDefinition = {
  name: 'lookup',
  description: 'd',
  parameters: { type: 'object', properties: {} },
};

async function session(client: LLMClient) {
  const generated = await client.generate({
    model: 'claude-sonnet-4-6',
    prompt: 'Find it',
    tools: [tool],
    toolExecutor: async () => 'found',
  });
  const events: StreamEvent[] = [];
  for await (const event of client.stream({
    model: 'claude-sonnet-4-6',
    messages: [Message.user('stream please')],
  })) {
    events.push(event);
  }
  const failure = await client
    .complete({ model: 'claude-sonnet-4-6', messages: [Message.user('fail')] })
    .catch((e: unknown) => e);
  return { generated, events, failure };
}

describe('record / replay', () => {
  it('records a session to a JSONL cassette and replays it offline with identical results', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'attractor-cassette-'));
    dirs.push(dir);
    const path = join(dir, 'session.jsonl');
    const adapter = new ScriptedAdapter({
      turns: [
        { toolCalls: [{ name: 'lookup', arguments: {} }] },
        'It is here.',
        'streamed answer',
        {
          error: new RateLimitError('slow down', {
            provider: 'scripted',
            status: 429,
            retryAfterMs: 999_999,
          }),
        },
      ],
    });
    const recorder = new RecordMiddleware({ path });
    const recorded = await session(new LLMClient({ adapters: [adapter], middleware: [recorder] }));
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(4);

    const replay = new ReplayMiddleware({ path });
    const replayed = await session(new LLMClient({ middleware: [replay] }));
    expect(replayed.generated.text).toBe('It is here.');
    expect(replayed.generated.steps).toHaveLength(2);
    expect(replayed.generated.totalUsage).toEqual(recorded.generated.totalUsage);
    expect(replayed.events.map((e) => e.type)).toEqual(recorded.events.map((e) => e.type));
    expect(replayed.failure).toBeInstanceOf(RateLimitError);
    expect(replayed.failure).toMatchObject({ retryAfterMs: 999_999 });
    expect(replay.remaining).toBe(0);
  });

  it('fails clearly on a request that does not match the cassette', async () => {
    const recorder = new RecordMiddleware();
    const adapter = new ScriptedAdapter({ turns: ['a'] });
    await new LLMClient({ adapters: [adapter], middleware: [recorder] }).complete({
      model: 'claude-sonnet-4-6',
      messages: [Message.user('original')],
    });
    const client = new LLMClient({ middleware: [new ReplayMiddleware({ entries: recorder.entries })] });
    await expect(
      client.complete({ model: 'claude-sonnet-4-6', messages: [Message.user('changed')] }),
    ).rejects.toThrow(
      /call #1 .* differs from recorded complete call #1 at `messages\[0\]\.content\[0\]\.text`/,
    );
    const drain = async () => {
      for await (const _ of client.stream({ model: 'm', messages: [] })) {
        // the first event is the error event; the iterator then throws
      }
    };
    await expect(drain()).rejects.toThrow(/no unused stream call left/);
  });
});

describe('token tracking and logging', () => {
  it('sums usage and cost over complete and stream calls, and logs each', async () => {
    const tracker = new TokenTrackingMiddleware();
    const lines: string[] = [];
    const adapter = new ScriptedAdapter({
      turns: () => ({ text: 'x', usage: { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 500 } }),
    });
    const client = new LLMClient({
      adapters: [adapter],
      middleware: [tracker, new LoggingMiddleware({ log: (l) => lines.push(l) })],
    });
    await client.complete({ model: 'claude-haiku-4-5', messages: [Message.user('a')] });
    for await (const _ of client.stream({ model: 'claude-haiku-4-5', messages: [Message.user('b')] })) {
      // drain
    }
    expect(tracker.totalUsage).toMatchObject({ inputTokens: 2000, outputTokens: 200, cacheReadTokens: 1000 });
    // haiku 4.5: $1 in, $5 out, cache reads $0.10.
    expect(tracker.totalCost).toBeCloseTo((2 * (500 * 1 + 500 * 0.1 + 100 * 5)) / 1e6, 12);
    expect(lines.filter((l) => l.startsWith('llm response'))).toHaveLength(2);
    expect(lines[0]).toBe('llm request model=claude-haiku-4-5 messages=1');
  });
});
