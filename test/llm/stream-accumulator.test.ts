import { describe, expect, it } from 'vitest';
import { toolCallPart } from '../../src/llm/message.js';
import { createResponse } from '../../src/llm/response.js';
import { StreamAccumulator } from '../../src/llm/stream-accumulator.js';
import type { StreamEvent } from '../../src/llm/types.js';
import { createUsage } from '../../src/llm/usage.js';

const call = toolCallPart('c1', 'grep', '{"q":"x"}');

/** Parts that start, pause while another streams, and resume: each event must find its own part again. */
const interleaved: StreamEvent[] = [
  { type: 'stream_start', id: 'r1', model: 'm' },
  { type: 'reasoning_start', reasoningId: '0' },
  { type: 'reasoning_delta', reasoningId: '0', delta: 'thin' },
  { type: 'text_start', textId: '1' },
  { type: 'text_delta', textId: '1', delta: 'Hel' },
  { type: 'reasoning_delta', reasoningId: '0', delta: 'king' },
  { type: 'tool_call_start', toolCallId: 'c1', toolName: 'grep' },
  { type: 'text_delta', textId: '1', delta: 'lo' },
  { type: 'tool_call_delta', toolCallId: 'c1', argumentsDelta: '{"q":' },
  { type: 'text_start', textId: '2' },
  { type: 'text_delta', textId: '2', delta: 'again' },
  { type: 'tool_call_delta', toolCallId: 'c1', argumentsDelta: '"x"}' },
  { type: 'reasoning_end', reasoningId: '0', text: 'thinking', signature: 'sig' },
];

describe('StreamAccumulator', () => {
  it('folds interleaved parts into the response so far, each part in the order it started', () => {
    const accumulator = new StreamAccumulator();
    for (const event of interleaved) accumulator.add(event);
    const response = accumulator.response;
    expect(response.message.content).toEqual([
      { kind: 'thinking', text: 'thinking', signature: 'sig' },
      { kind: 'text', text: 'Hello' },
      toolCallPart('c1', 'grep', '{"q":"x"}'),
      { kind: 'text', text: 'again' },
    ]);
    expect(accumulator.text).toBe('Helloagain');
    expect(accumulator.finished).toBe(false);
  });

  it('a delta or end for a part never started opens it', () => {
    const accumulator = new StreamAccumulator();
    accumulator.add({ type: 'text_delta', textId: '7', delta: 'a' });
    accumulator.add({ type: 'reasoning_delta', reasoningId: '7', delta: 'r' });
    accumulator.add({ type: 'tool_call_end', toolCall: call });
    accumulator.add({ type: 'text_end', textId: '8', text: 'b' });
    expect(accumulator.response.message.content).toEqual([
      { kind: 'text', text: 'a' },
      { kind: 'thinking', text: 'r' },
      call,
      { kind: 'text', text: 'b' },
    ]);
  });

  it('shows the final response once finished, and starts over with the next stream', () => {
    const accumulator = new StreamAccumulator();
    for (const event of interleaved) accumulator.add(event);
    const final = createResponse({
      id: 'r1',
      model: 'm',
      provider: 'p',
      message: { role: 'assistant', content: [{ kind: 'text', text: 'final' }] },
      finishReason: { reason: 'stop' },
      usage: createUsage({ inputTokens: 1, outputTokens: 1 }),
    });
    accumulator.add({
      type: 'finish',
      finishReason: final.finishReason,
      usage: final.usage,
      response: final,
    });
    expect(accumulator.response).toBe(final);
    accumulator.add({ type: 'text_delta', textId: '1', delta: 'ignored' });
    expect(accumulator.response).toBe(final);
    accumulator.add({ type: 'text_start', textId: '1' });
    accumulator.add({ type: 'text_delta', textId: '1', delta: 'next' });
    expect(accumulator.response.message.content).toEqual([{ kind: 'text', text: 'next' }]);
  });
});
