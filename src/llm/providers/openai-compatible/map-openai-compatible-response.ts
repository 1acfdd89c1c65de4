import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { definedFields } from '../../../shared/defined-fields.js';
import { toolCallPart } from '../../message.js';
import { createResponse } from '../../response.js';
import type { ContentPart, RateLimitInfo, Response, TokenUsage } from '../../types.js';
import { createUsage } from '../../usage.js';
import { mapOpenAICompatibleFinishReason } from './map-openai-compatible-finish-reason.js';

/** Cached prompt tokens are a cache read; reasoning tokens are part of the completion count. */
export function mapOpenAICompatibleUsage(usage: CompletionUsage | null | undefined): TokenUsage {
  if (!usage) return createUsage();
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  const cached = usage.prompt_tokens_details?.cached_tokens;
  return createUsage({
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    totalTokens: usage.total_tokens,
    ...definedFields({ reasoningTokens: reasoning, cacheReadTokens: cached }),
    raw: usage as unknown as Record<string, unknown>,
  });
}

/** Reasoning text as servers send it: `reasoning_content` (DeepSeek, vLLM) or `reasoning` (Ollama, OpenRouter). */
export function reasoningOf(value: object | null | undefined): string | undefined {
  const record = value as { reasoning_content?: unknown; reasoning?: unknown } | null | undefined;
  const reasoning = record?.reasoning_content ?? record?.reasoning;
  return typeof reasoning === 'string' && reasoning !== '' ? reasoning : undefined;
}

export interface CompatibleResponseExtras {
  provider: string;
  warnings: string[];
  latencyMs?: number;
  rateLimit?: RateLimitInfo | undefined;
}

/** A `chat.completion` → the unified Response; only the first choice is read. */
export function mapOpenAICompatibleResponse(
  data: ChatCompletion,
  extras: CompatibleResponseExtras,
): Response {
  const choice = data.choices[0];
  const message = choice?.message;
  const content: ContentPart[] = [];
  const reasoning = reasoningOf(message);
  if (reasoning !== undefined) content.push({ kind: 'thinking', text: reasoning });
  if (message?.content) content.push({ kind: 'text', text: message.content });
  else if (message?.refusal) content.push({ kind: 'text', text: message.refusal });
  for (const call of message?.tool_calls ?? []) {
    if (call.type === 'function')
      content.push(toolCallPart(call.id, call.function.name, call.function.arguments));
  }
  return createResponse({
    id: data.id,
    model: data.model,
    provider: extras.provider,
    message: { role: 'assistant', content },
    finishReason: mapOpenAICompatibleFinishReason(
      choice?.finish_reason,
      content.some((part) => part.kind === 'tool_call'),
    ),
    usage: mapOpenAICompatibleUsage(data.usage),
    raw: data,
    warnings: extras.warnings,
    ...definedFields({ latencyMs: extras.latencyMs, rateLimit: extras.rateLimit }),
  });
}
