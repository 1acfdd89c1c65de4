import type { GenerateContentResponse, GenerateContentResponseUsageMetadata, Part } from '@google/genai';
import { definedFields } from '../../../shared/defined-fields.js';
import { createResponse } from '../../response.js';
import type { ContentPart, Response, TokenUsage } from '../../types.js';
import { createUsage } from '../../usage.js';
import { syntheticToolCallId } from './convert-to-gemini-messages.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';

/**
 * Gemini counts thoughts apart from the candidates; we add them to the output (they are billed as output,
 * and OpenAI's output count includes its reasoning too) and report them as reasoning tokens.
 */
export function mapGeminiUsage(usage: GenerateContentResponseUsageMetadata | undefined): TokenUsage {
  if (!usage) return createUsage();
  const thoughts = usage.thoughtsTokenCount;
  const outputTokens = (usage.candidatesTokenCount ?? 0) + (thoughts ?? 0);
  const inputTokens = usage.promptTokenCount ?? 0;
  return createUsage({
    inputTokens,
    outputTokens,
    totalTokens: usage.totalTokenCount ?? inputTokens + outputTokens,
    ...definedFields({ reasoningTokens: thoughts, cacheReadTokens: usage.cachedContentTokenCount }),
    raw: usage as Record<string, unknown>,
  });
}

/**
 * One Gemini part → unified parts. A thought signature on an ordinary part becomes a text-less thinking part
 * placed just before it (see convert-to-gemini-messages.ts), so it survives the round trip.
 */
export function mapGeminiPart(part: Part): ContentPart[] {
  if (part.thought) {
    return [
      {
        kind: 'thinking',
        text: part.text ?? '',
        ...(part.thoughtSignature ? { signature: part.thoughtSignature } : {}),
      },
    ];
  }
  const signed: ContentPart[] = part.thoughtSignature
    ? [{ kind: 'thinking', text: '', signature: part.thoughtSignature }]
    : [];
  if (part.functionCall) {
    const args = part.functionCall.args ?? {};
    return [
      ...signed,
      {
        kind: 'tool_call',
        toolCallId: part.functionCall.id ?? syntheticToolCallId(),
        toolName: part.functionCall.name ?? '',
        arguments: args,
        argumentsJson: JSON.stringify(args),
      },
    ];
  }
  if (part.text !== undefined) return [...signed, { kind: 'text', text: part.text }];
  return signed;
}

/** Joins adjacent text (and adjacent unsigned thinking) parts, as a stream delivers them in pieces. */
export function mergeAdjacentParts(parts: readonly ContentPart[]): ContentPart[] {
  const merged: ContentPart[] = [];
  for (const part of parts) {
    const last = merged.at(-1);
    if (part.kind === 'text' && last?.kind === 'text') {
      merged[merged.length - 1] = { ...last, text: last.text + part.text };
    } else if (
      part.kind === 'thinking' &&
      last?.kind === 'thinking' &&
      last.text !== '' &&
      part.text !== ''
    ) {
      merged[merged.length - 1] = {
        ...last,
        text: last.text + part.text,
        ...(part.signature ? { signature: part.signature } : {}),
      };
    } else {
      merged.push(part);
    }
  }
  return merged;
}

export interface GeminiResponseExtras {
  model: string;
  warnings: string[];
  latencyMs?: number;
}

/** A (non-streamed) GenerateContentResponse → the unified Response; only the first candidate is read. */
export function mapGeminiResponse(data: GenerateContentResponse, extras: GeminiResponseExtras): Response {
  const candidate = data.candidates?.[0];
  const content = mergeAdjacentParts((candidate?.content?.parts ?? []).flatMap(mapGeminiPart));
  return createResponse({
    id: data.responseId ?? '',
    model: data.modelVersion ?? extras.model,
    provider: 'gemini',
    message: { role: 'assistant', content },
    finishReason: mapGeminiFinishReason(
      candidate?.finishReason,
      content.some((part) => part.kind === 'tool_call'),
      data.promptFeedback?.blockReason,
    ),
    usage: mapGeminiUsage(data.usageMetadata),
    raw: data,
    warnings: extras.warnings,
    ...definedFields({ latencyMs: extras.latencyMs }),
  });
}
