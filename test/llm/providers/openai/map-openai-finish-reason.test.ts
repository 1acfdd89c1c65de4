import { describe, expect, it } from 'vitest';
import {
  mapOpenAIFinishReason,
  type ResponsesOutcome,
} from '../../../../src/llm/providers/openai/map-openai-finish-reason.js';

describe('mapOpenAIFinishReason', () => {
  it.each<[ResponsesOutcome, ReturnType<typeof mapOpenAIFinishReason>]>([
    [
      { status: 'completed', hasToolCalls: false },
      { reason: 'stop', raw: 'completed' },
    ],
    [
      { status: 'completed', hasToolCalls: true },
      { reason: 'tool_calls', raw: 'completed' },
    ],
    [
      { status: 'incomplete', incompleteReason: 'max_output_tokens', hasToolCalls: false },
      { reason: 'length', raw: 'max_output_tokens' },
    ],
    [
      { status: 'incomplete', incompleteReason: 'content_filter', hasToolCalls: false },
      { reason: 'content_filter', raw: 'content_filter' },
    ],
    [
      { status: 'incomplete', hasToolCalls: false },
      { reason: 'other', raw: 'incomplete' },
    ],
    [
      { status: 'failed', hasToolCalls: false },
      { reason: 'error', raw: 'failed' },
    ],
    [
      { status: 'cancelled', hasToolCalls: false },
      { reason: 'other', raw: 'cancelled' },
    ],
    [{ status: undefined, hasToolCalls: false }, { reason: 'other' }],
  ])('%o → %o', (outcome, expected) => {
    expect(mapOpenAIFinishReason(outcome)).toEqual(expected);
  });
});
