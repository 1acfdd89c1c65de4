import type { GenerateContentResponse, GenerateContentResponseUsageMetadata } from '@google/genai';
import { StreamError } from '../../errors/stream-error.js';
import { createResponse } from '../../response.js';
import type { ContentPart, StreamEvent } from '../../types.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
import { mapGeminiPart, mapGeminiUsage, mergeAdjacentParts } from './map-gemini-response.js';

export interface GeminiStreamContext {
  model: string;
  warnings: string[];
  startedAt: number;
}

interface OpenBlock {
  kind: 'text' | 'reasoning';
  id: string;
  text: string;
  signature?: string;
}

function endEvent(block: OpenBlock): StreamEvent {
  if (block.kind === 'text') return { type: 'text_end', textId: block.id, text: block.text };
  return {
    type: 'reasoning_end',
    reasoningId: block.id,
    text: block.text,
    ...(block.signature ? { signature: block.signature } : {}),
  };
}

/**
 * Gemini stream chunks (each a partial GenerateContentResponse) → unified events. Text and thought parts open
 * a block that stays open while parts of the same kind keep coming; a function call arrives whole, so its
 * start, one delta with all the arguments, and end are emitted together. The last chunk carries the finish
 * reason and usage; a stream that ends without one was cut short.
 */
export async function* mapGeminiStream(
  chunks: AsyncIterable<GenerateContentResponse>,
  context: GeminiStreamContext,
): AsyncGenerator<StreamEvent> {
  let started = false;
  let open: OpenBlock | undefined;
  let blocks = 0;
  const parts: ContentPart[] = [];
  let last: GenerateContentResponse | undefined;
  let finishRaw: string | undefined;
  let usage: GenerateContentResponseUsageMetadata | undefined;

  for await (const chunk of chunks) {
    last = chunk;
    if (chunk.usageMetadata) usage = chunk.usageMetadata;
    if (!started) {
      started = true;
      yield {
        type: 'stream_start',
        ...(chunk.responseId ? { id: chunk.responseId } : {}),
        model: chunk.modelVersion ?? context.model,
      };
    }
    const candidate = chunk.candidates?.[0];
    if (candidate?.finishReason) finishRaw = candidate.finishReason;
    for (const part of candidate?.content?.parts ?? []) {
      for (const mapped of mapGeminiPart(part)) {
        parts.push(mapped);
        if (mapped.kind === 'tool_call') {
          if (open) yield endEvent(open);
          open = undefined;
          yield { type: 'tool_call_start', toolCallId: mapped.toolCallId, toolName: mapped.toolName };
          yield {
            type: 'tool_call_delta',
            toolCallId: mapped.toolCallId,
            argumentsDelta: mapped.argumentsJson,
          };
          yield { type: 'tool_call_end', toolCall: mapped };
          continue;
        }
        // A signature alone (an empty thinking part) has nothing to show; finish.response keeps it.
        if ((mapped.kind !== 'text' && mapped.kind !== 'thinking') || mapped.text === '') continue;
        const kind = mapped.kind === 'text' ? 'text' : 'reasoning';
        if (open?.kind !== kind) {
          if (open) yield endEvent(open);
          open = { kind, id: `${kind}_${blocks++}`, text: '' };
          yield kind === 'text'
            ? { type: 'text_start', textId: open.id }
            : { type: 'reasoning_start', reasoningId: open.id };
        }
        open.text += mapped.text;
        if (mapped.kind === 'thinking' && mapped.signature) open.signature = mapped.signature;
        yield kind === 'text'
          ? { type: 'text_delta', textId: open.id, delta: mapped.text }
          : { type: 'reasoning_delta', reasoningId: open.id, delta: mapped.text };
      }
    }
  }
  if (open) yield endEvent(open);
  const blockReason = last?.promptFeedback?.blockReason;
  if (finishRaw === undefined && blockReason === undefined) {
    throw new StreamError('gemini: the stream ended before a finish reason', { provider: 'gemini' });
  }

  const content = mergeAdjacentParts(parts);
  const response = createResponse({
    id: last?.responseId ?? '',
    model: last?.modelVersion ?? context.model,
    provider: 'gemini',
    message: { role: 'assistant', content },
    finishReason: mapGeminiFinishReason(
      finishRaw,
      content.some((part) => part.kind === 'tool_call'),
      blockReason,
    ),
    usage: mapGeminiUsage(usage),
    raw: last,
    warnings: context.warnings,
    latencyMs: Date.now() - context.startedAt,
  });
  yield { type: 'finish', finishReason: response.finishReason, usage: response.usage, response };
}
