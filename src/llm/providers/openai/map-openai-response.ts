import type {
  Response as OpenAIResponse,
  ResponseReasoningItem,
  ResponseUsage,
} from 'openai/resources/responses/responses';
import { definedFields } from '../../../shared/defined-fields.js';
import { toolCallPart } from '../../message.js';
import { createResponse } from '../../response.js';
import type { ContentPart, RateLimitInfo, Response, TokenUsage } from '../../types.js';
import { createUsage } from '../../usage.js';
import { encodeReasoningSignature } from './convert-to-openai-messages.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';

/** Cached prompt tokens are a cache read; reasoning tokens are part of (not added to) the output count. */
export function mapOpenAIUsage(usage: ResponseUsage | null | undefined): TokenUsage {
  if (!usage) return createUsage();
  const details = usage.input_tokens_details as
    | { cached_tokens?: number; cache_write_tokens?: number }
    | undefined;
  return createUsage({
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    totalTokens: usage.total_tokens,
    ...(usage.output_tokens_details?.reasoning_tokens !== undefined
      ? { reasoningTokens: usage.output_tokens_details.reasoning_tokens }
      : {}),
    ...(details?.cached_tokens !== undefined ? { cacheReadTokens: details.cached_tokens } : {}),
    ...(details?.cache_write_tokens !== undefined ? { cacheWriteTokens: details.cache_write_tokens } : {}),
    raw: usage as unknown as Record<string, unknown>,
  });
}

/** The reasoning text we show: the summary when the model gave one, else its raw reasoning text. */
export function reasoningText(item: ResponseReasoningItem): string {
  const summary = item.summary.map((part) => part.text);
  if (summary.length > 0) return summary.join('\n\n');
  return (item.content ?? []).map((part) => part.text).join('');
}

/** Output items → content parts, in order. Built-in tool items (web search, ...) are not ours and are skipped. */
export function mapOpenAIOutput(output: OpenAIResponse['output']): ContentPart[] {
  const parts: ContentPart[] = [];
  for (const item of output) {
    if (item.type === 'message') {
      for (const content of item.content) {
        const text = content.type === 'output_text' ? content.text : content.refusal;
        parts.push({ kind: 'text', text });
      }
    } else if (item.type === 'reasoning') {
      parts.push({ kind: 'thinking', text: reasoningText(item), signature: encodeReasoningSignature(item) });
    } else if (item.type === 'function_call') {
      parts.push(toolCallPart(item.call_id, item.name, item.arguments));
    }
  }
  return parts;
}

function headerNumber(headers: Headers, name: string): number | undefined {
  const value = headers.get(name);
  if (value === null || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** OpenAI's `x-ratelimit-*` headers; undefined when the server sent none. */
export function rateLimitFromHeaders(headers: Headers | undefined): RateLimitInfo | undefined {
  if (!headers) return undefined;
  const info: RateLimitInfo = {};
  const requestsRemaining = headerNumber(headers, 'x-ratelimit-remaining-requests');
  const requestsLimit = headerNumber(headers, 'x-ratelimit-limit-requests');
  const tokensRemaining = headerNumber(headers, 'x-ratelimit-remaining-tokens');
  const tokensLimit = headerNumber(headers, 'x-ratelimit-limit-tokens');
  const reset = headers.get('x-ratelimit-reset-requests');
  if (requestsRemaining !== undefined) info.requestsRemaining = requestsRemaining;
  if (requestsLimit !== undefined) info.requestsLimit = requestsLimit;
  if (tokensRemaining !== undefined) info.tokensRemaining = tokensRemaining;
  if (tokensLimit !== undefined) info.tokensLimit = tokensLimit;
  if (reset !== null) info.resetAt = reset;
  return Object.keys(info).length === 0 ? undefined : info;
}

export interface ResponseExtras {
  provider: string;
  warnings: string[];
  latencyMs?: number;
  rateLimit?: RateLimitInfo | undefined;
}

/** A Responses API `Response` object → the unified Response. */
export function mapOpenAIResponse(data: OpenAIResponse, extras: ResponseExtras): Response {
  const content = mapOpenAIOutput(data.output);
  return createResponse({
    id: data.id,
    model: data.model,
    provider: extras.provider,
    message: { role: 'assistant', content },
    finishReason: mapOpenAIFinishReason({
      status: data.status,
      incompleteReason: data.incomplete_details?.reason,
      hasToolCalls: content.some((part) => part.kind === 'tool_call'),
    }),
    usage: mapOpenAIUsage(data.usage),
    raw: data,
    warnings: extras.warnings,
    ...definedFields({ latencyMs: extras.latencyMs, rateLimit: extras.rateLimit }),
  });
}
