import type { Anthropic } from '@anthropic-ai/sdk';
import { definedFields } from '../../../shared/defined-fields.js';
import { toolCallPart } from '../../message.js';
import { createResponse } from '../../response.js';
import type { ContentPart, Response, TokenUsage } from '../../types.js';
import { createUsage } from '../../usage.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';

export interface AnthropicUsageFields {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/** Anthropic counts cache reads and writes outside `input_tokens`; the unified input includes them. */
export function mapAnthropicUsage(usage: AnthropicUsageFields): TokenUsage {
  const cacheRead = usage.cache_read_input_tokens ?? undefined;
  const cacheWrite = usage.cache_creation_input_tokens ?? undefined;
  const thinking = usage.output_tokens_details?.thinking_tokens ?? undefined;
  return createUsage({
    inputTokens: (usage.input_tokens ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0),
    outputTokens: usage.output_tokens ?? 0,
    ...definedFields({ cacheReadTokens: cacheRead, cacheWriteTokens: cacheWrite, reasoningTokens: thinking }),
    raw: usage as Record<string, unknown>,
  });
}

/** One response content block as a unified part; server-side tool blocks have no unified form and are dropped. */
export function mapAnthropicBlock(block: Anthropic.ContentBlock): ContentPart | undefined {
  switch (block.type) {
    case 'text':
      return { kind: 'text', text: block.text };
    case 'thinking':
      return { kind: 'thinking', text: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      return { kind: 'redacted_thinking', data: block.data };
    case 'tool_use':
      return toolCallPart(block.id, block.name, JSON.stringify(block.input ?? {}));
    default:
      return undefined;
  }
}

export function mapAnthropicResponse(message: Anthropic.Message, latencyMs?: number): Response {
  const content = message.content
    .map(mapAnthropicBlock)
    .filter((part): part is ContentPart => part !== undefined);
  return createResponse({
    id: message.id,
    model: message.model,
    provider: 'anthropic',
    message: { role: 'assistant', content },
    finishReason: mapAnthropicFinishReason(message.stop_reason),
    usage: mapAnthropicUsage(message.usage),
    raw: message,
    ...definedFields({ latencyMs }),
  });
}
