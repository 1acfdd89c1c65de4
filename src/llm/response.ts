import { definedFields } from '../shared/defined-fields.js';
import { messageReasoning, messageText, messageToolCalls } from './message.js';
import type { Response } from './types.js';

/** A Response's own fields: all but those derived from its message; `warnings` defaults to none. */
export interface ResponseFields extends Omit<Response, 'text' | 'toolCalls' | 'reasoning' | 'warnings'> {
  warnings?: string[];
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
    ...definedFields({ reasoning, latencyMs: fields.latencyMs, raw: fields.raw }),
    warnings: fields.warnings ?? [],
    ...definedFields({ rateLimit: fields.rateLimit, metadata: fields.metadata }),
  };
}
