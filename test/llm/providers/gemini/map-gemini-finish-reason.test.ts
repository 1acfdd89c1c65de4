import { describe, expect, it } from 'vitest';
import { mapGeminiFinishReason } from '../../../../src/llm/providers/gemini/map-gemini-finish-reason.js';

describe('mapGeminiFinishReason', () => {
  it.each<[string | undefined, boolean, string | undefined, ReturnType<typeof mapGeminiFinishReason>]>([
    ['STOP', false, undefined, { reason: 'stop', raw: 'STOP' }],
    ['STOP', true, undefined, { reason: 'tool_calls', raw: 'STOP' }],
    ['MAX_TOKENS', false, undefined, { reason: 'length', raw: 'MAX_TOKENS' }],
    ['SAFETY', false, undefined, { reason: 'content_filter', raw: 'SAFETY' }],
    ['RECITATION', false, undefined, { reason: 'content_filter', raw: 'RECITATION' }],
    ['PROHIBITED_CONTENT', false, undefined, { reason: 'content_filter', raw: 'PROHIBITED_CONTENT' }],
    ['MALFORMED_FUNCTION_CALL', false, undefined, { reason: 'error', raw: 'MALFORMED_FUNCTION_CALL' }],
    ['LANGUAGE', false, undefined, { reason: 'other', raw: 'LANGUAGE' }],
    [undefined, false, 'SAFETY', { reason: 'content_filter', raw: 'SAFETY' }],
    [undefined, true, undefined, { reason: 'tool_calls' }],
    [undefined, false, undefined, { reason: 'other' }],
  ])('%s (tool calls: %s, prompt blocked: %s)', (raw, hasToolCalls, blocked, expected) => {
    expect(mapGeminiFinishReason(raw, hasToolCalls, blocked)).toEqual(expected);
  });
});
