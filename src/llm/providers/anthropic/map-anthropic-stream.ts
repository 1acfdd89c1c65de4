import type { Anthropic } from '@anthropic-ai/sdk';
import { RequestTimeoutError } from '../../errors/request-timeout-error.js';
import { StreamError } from '../../errors/stream-error.js';
import { MappedStream } from '../../mapped-stream.js';
import { toolCallPart } from '../../message.js';
import { createResponse } from '../../response.js';
import type { ContentPart, StreamEvent } from '../../types.js';
import type { RequestDeadline } from '../shared/request-deadline.js';
import { mapAnthropicError } from './map-anthropic-error.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';
import { type AnthropicUsageFields, mapAnthropicUsage } from './map-anthropic-response.js';

type OpenBlock =
  | { kind: 'text'; id: string; text: string }
  | { kind: 'thinking'; id: string; text: string; signature?: string }
  | { kind: 'redacted_thinking'; id: string; data: string }
  | { kind: 'tool_call'; id: string; name: string; json: string }
  | { kind: 'other' };

function close(block: OpenBlock): { part?: ContentPart; event?: StreamEvent } {
  switch (block.kind) {
    case 'text':
      return {
        part: { kind: 'text', text: block.text },
        event: { type: 'text_end', textId: block.id, text: block.text },
      };
    case 'thinking': {
      const signature = block.signature === undefined ? {} : { signature: block.signature };
      return {
        part: { kind: 'thinking', text: block.text, ...signature },
        event: { type: 'reasoning_end', reasoningId: block.id, text: block.text, ...signature },
      };
    }
    case 'redacted_thinking':
      return {
        part: { kind: 'redacted_thinking', data: block.data },
        event: { type: 'reasoning_end', reasoningId: block.id, text: '' },
      };
    case 'tool_call': {
      const part = toolCallPart(block.id, block.name, block.json);
      return { part, event: { type: 'tool_call_end', toolCall: part } };
    }
    default:
      return {};
  }
}

/**
 * Raw Messages API stream events (message_start, content_block_start/delta/stop, message_delta, message_stop,
 * ping) to unified events. The `finish` event carries the assembled message, signatures included. A stream
 * that ends before message_stop is a StreamError.
 */
export function mapAnthropicStream(
  open: () => Promise<AsyncIterable<Anthropic.RawMessageStreamEvent>>,
  signal?: AbortSignal,
  deadline?: RequestDeadline,
): AsyncIterableIterator<StreamEvent> {
  const started = Date.now();
  let streamStarted = false;
  const blocks = new Map<number, OpenBlock>();
  const parts: Array<{ index: number; part: ContentPart }> = [];
  let id = '';
  let model = '';
  let stopReason: string | null = null;
  let usage: AnthropicUsageFields = {};
  return new MappedStream<Anthropic.RawMessageStreamEvent, StreamEvent>(
    open,
    {
      mapError: (error) =>
        deadline?.timedOut
          ? new RequestTimeoutError(`anthropic: no stream event within ${deadline.timeoutMs} ms`, {
              provider: 'anthropic',
              cause: error,
            })
          : mapAnthropicError(error, signal, streamStarted),
      endedEarly: () => {
        throw new StreamError('anthropic stream ended before message_stop', { provider: 'anthropic' });
      },
      map(event, push) {
        switch (event.type) {
          case 'message_start':
            id = event.message.id;
            model = event.message.model;
            usage = { ...event.message.usage };
            streamStarted = true;
            push({ type: 'stream_start', id, model });
            return false;
          case 'content_block_start': {
            const block = event.content_block;
            const key = `${event.index}`;
            if (block.type === 'text') {
              blocks.set(event.index, { kind: 'text', id: key, text: block.text ?? '' });
              push({ type: 'text_start', textId: key });
              if (block.text) push({ type: 'text_delta', textId: key, delta: block.text });
            } else if (block.type === 'thinking') {
              blocks.set(event.index, { kind: 'thinking', id: key, text: block.thinking ?? '' });
              push({ type: 'reasoning_start', reasoningId: key });
            } else if (block.type === 'redacted_thinking') {
              blocks.set(event.index, { kind: 'redacted_thinking', id: key, data: block.data });
              push({ type: 'reasoning_start', reasoningId: key, redacted: true });
            } else if (block.type === 'tool_use') {
              blocks.set(event.index, { kind: 'tool_call', id: block.id, name: block.name, json: '' });
              push({ type: 'tool_call_start', toolCallId: block.id, toolName: block.name });
            } else {
              blocks.set(event.index, { kind: 'other' });
              push({ type: 'provider_event', raw: event });
            }
            return false;
          }
          case 'content_block_delta': {
            const block = blocks.get(event.index);
            const delta = event.delta;
            if (delta.type === 'text_delta' && block?.kind === 'text') {
              block.text += delta.text;
              push({ type: 'text_delta', textId: block.id, delta: delta.text });
            } else if (delta.type === 'thinking_delta' && block?.kind === 'thinking') {
              block.text += delta.thinking;
              push({ type: 'reasoning_delta', reasoningId: block.id, delta: delta.thinking });
            } else if (delta.type === 'signature_delta' && block?.kind === 'thinking') {
              block.signature = (block.signature ?? '') + delta.signature;
            } else if (delta.type === 'input_json_delta' && block?.kind === 'tool_call') {
              block.json += delta.partial_json;
              if (delta.partial_json !== '') {
                push({ type: 'tool_call_delta', toolCallId: block.id, argumentsDelta: delta.partial_json });
              }
            }
            return false;
          }
          case 'content_block_stop': {
            const block = blocks.get(event.index);
            if (!block) return false;
            blocks.delete(event.index);
            const closed = close(block);
            if (closed.part) parts.push({ index: event.index, part: closed.part });
            if (closed.event) push(closed.event);
            return false;
          }
          case 'message_delta':
            stopReason = event.delta.stop_reason ?? stopReason;
            // message_delta usage is cumulative; null fields keep the message_start values.
            for (const [key, value] of Object.entries(event.usage)) {
              if (value !== null && value !== undefined) (usage as Record<string, unknown>)[key] = value;
            }
            return false;
          case 'message_stop': {
            parts.sort((a, b) => a.index - b.index);
            const finishReason = mapAnthropicFinishReason(stopReason);
            const mappedUsage = mapAnthropicUsage(usage);
            const response = createResponse({
              id,
              model,
              provider: 'anthropic',
              message: { role: 'assistant', content: parts.map((entry) => entry.part) },
              finishReason,
              usage: mappedUsage,
              latencyMs: Date.now() - started,
            });
            push({ type: 'finish', finishReason, usage: mappedUsage, response });
            return true;
          }
          default:
            return false;
        }
      },
    },
    deadline,
  );
}
