import { describe, expect, it } from 'vitest';
import { mapOpenAICompatibleFinishReason } from '../../../../src/llm/providers/openai-compatible/map-openai-compatible-finish-reason.js';

describe('mapOpenAICompatibleFinishReason', () => {
  it.each<[string | null | undefined, boolean, ReturnType<typeof mapOpenAICompatibleFinishReason>]>([
    ['stop', false, { reason: 'stop', raw: 'stop' }],
    ['stop', true, { reason: 'tool_calls', raw: 'stop' }],
    ['length', false, { reason: 'length', raw: 'length' }],
    ['tool_calls', true, { reason: 'tool_calls', raw: 'tool_calls' }],
    ['function_call', true, { reason: 'tool_calls', raw: 'function_call' }],
    ['content_filter', false, { reason: 'content_filter', raw: 'content_filter' }],
    ['eos_token', false, { reason: 'other', raw: 'eos_token' }],
    [null, false, { reason: 'other' }],
    [undefined, true, { reason: 'tool_calls' }],
  ])('%s (tool calls: %s)', (raw, hasToolCalls, expected) => {
    expect(mapOpenAICompatibleFinishReason(raw, hasToolCalls)).toEqual(expected);
  });
});
