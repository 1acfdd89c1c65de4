import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Message } from '../../../../src/llm/message.js';
import { GeminiAdapter } from '../../../../src/llm/providers/gemini/gemini-adapter.js';
import {
  FAKE_GEMINI_KEY,
  geminiSseReply,
  parseGeminiPath,
  startFakeGeminiServer,
} from '../../../helpers/fake-gemini-server.js';
import { collectEvents, weatherTool } from '../../../helpers/llm-fixtures.js';
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

function _lastBody(): Record<string, unknown> {
  return server.requests.at(-1)?.body as Record<string, unknown>;
}

const collect = collectEvents;

describe('GeminiAdapter.stream', () => {
  it('posts streamGenerateContent?alt=sse and maps chunks to text events and a finish', async () => {
    server.enqueue(
      geminiSseReply([
        { parts: [{ text: 'Hel' }] },
        { parts: [{ text: 'lo ' }] },
        { parts: [{ text: 'world' }], finishReason: 'STOP', usage: { prompt: 4, candidates: 3, cached: 2 } },
      ]),
    );
    const events = await collect(
      adapter.stream({ model: 'gemini-2.5-flash', messages: [Message.user('Hi')] }),
    );
    expect(server.requests[0]!.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(parseGeminiPath(server.requests[0]!.url).method).toBe('streamGenerateContent');
    expect(events.map((e) => e.type)).toEqual([
      'stream_start',
      'text_start',
      'text_delta',
      'text_delta',
      'text_delta',
      'text_end',
      'finish',
    ]);
    expect(events[5]).toEqual({ type: 'text_end', textId: 'text_0', text: 'Hello world' });
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { reason: 'stop', raw: 'STOP' },
      usage: { inputTokens: 4, outputTokens: 3, cacheReadTokens: 2 },
      response: {
        text: 'Hello world',
        provider: 'gemini',
        message: { content: [{ kind: 'text', text: 'Hello world' }] },
      },
    });
  });

  it('streams thoughts as reasoning, then whole function calls as start/delta/end', async () => {
    server.enqueue(
      geminiSseReply([
        { parts: [{ text: 'Let me ', thought: true }] },
        { parts: [{ text: 'check.', thought: true }] },
        {
          parts: [
            {
              functionCall: { id: 'fc-1', name: 'get_weather', args: { city: 'Paris' } },
              thoughtSignature: 'c2ln',
            },
            { functionCall: { id: 'fc-2', name: 'get_weather', args: { city: 'Rome' } } },
          ],
          finishReason: 'STOP',
          usage: { prompt: 5, candidates: 6, thoughts: 9 },
        },
      ]),
    );
    const events = await collect(
      adapter.stream({
        model: 'gemini-2.5-pro',
        messages: [Message.user('x')],
        tools: [weather],
        reasoningEffort: 'high',
      }),
    );
    expect(events.map((e) => e.type)).toEqual([
      'stream_start',
      'reasoning_start',
      'reasoning_delta',
      'reasoning_delta',
      'reasoning_end',
      'tool_call_start',
      'tool_call_delta',
      'tool_call_end',
      'tool_call_start',
      'tool_call_delta',
      'tool_call_end',
      'finish',
    ]);
    expect(events[4]).toEqual({ type: 'reasoning_end', reasoningId: 'reasoning_0', text: 'Let me check.' });
    expect(events[6]).toEqual({
      type: 'tool_call_delta',
      toolCallId: 'fc-1',
      argumentsDelta: '{"city":"Paris"}',
    });
    const finish = events.at(-1);
    if (finish?.type !== 'finish') throw new Error('no finish');
    expect(finish.finishReason.reason).toBe('tool_calls');
    expect(finish.usage.reasoningTokens).toBe(9);
    expect(finish.response.message.content).toEqual([
      { kind: 'thinking', text: 'Let me check.' },
      { kind: 'thinking', text: '', signature: 'c2ln' },
      expect.objectContaining({ kind: 'tool_call', toolCallId: 'fc-1' }),
      expect.objectContaining({ kind: 'tool_call', toolCallId: 'fc-2' }),
    ]);
  });
});
