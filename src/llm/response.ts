import { messageReasoning, messageText, messageToolCalls } from './message.js';
import type { FinishReason, Message, RateLimitInfo, Response, TokenUsage } from './types.js';

export interface ResponseFields {
  id: string;
  model: string;
  provider: string;
  message: Message;
  finishReason: FinishReason;
  usage: TokenUsage;
  latencyMs?: number;
  raw?: unknown;
  warnings?: string[];
  rateLimit?: RateLimitInfo;
  metadata?: Record<string, unknown>;
}

/** Builds a Response with its derived `text`, `toolCalls` and `reasoning` filled from the message. */
export function createResponse(fields: ResponseFields): Response {
  const reasoning = messageReasoning(fields.message);
  return {
    id: fields.id,
    model: fields.model,
    provider: fields.provider,
    message: fields.message,
    finishReason: fields.finishReason,
    usage: fields.usage,
    text: messageText(fields.message),
    toolCalls: messageToolCalls(fields.message),
    ...(reasoning !== undefined ? { reasoning } : {}),
    ...(fields.latencyMs !== undefined ? { latencyMs: fields.latencyMs } : {}),
    ...(fields.raw !== undefined ? { raw: fields.raw } : {}),
    warnings: fields.warnings ?? [],
    ...(fields.rateLimit !== undefined ? { rateLimit: fields.rateLimit } : {}),
    ...(fields.metadata !== undefined ? { metadata: fields.metadata } : {}),
  };
}
