import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { StreamError } from '../../errors/stream-error.js';
import { toolCallPart } from '../../message.js';
import type { StreamEvent } from '../../types.js';
import { encodeReasoningSignature } from './convert-to-openai-messages.js';
import { openAIErrorFromCode } from './map-openai-error.js';
import { mapOpenAIResponse, reasoningText } from './map-openai-response.js';

export interface StreamContext {
  provider: string;
  warnings: string[];
  startedAt: number;
}

/**
 * Responses API stream events → unified stream events. Output items open and close the text, reasoning and
 * tool-call blocks (`output_item.added` / `.done`), deltas are forwarded as they come, and the terminal
 * `response.completed` (or `.incomplete`) carries the full Response for `finish`. `response.failed` and the
 * `error` event end the stream with a typed error, and so does a stream that stops before a terminal event.
 */
export async function* mapOpenAIStream(
  events: AsyncIterable<ResponseStreamEvent>,
  context: StreamContext,
): AsyncGenerator<StreamEvent> {
  const texts = new Map<string, string>();
  const reasoning = new Map<string, string>();
  /** function_call item id → call id: argument deltas name the item, tool calls are known by call id. */
  const callIds = new Map<string, string>();
  const { provider } = context;

  for await (const event of events) {
    switch (event.type) {
      case 'response.created':
        yield { type: 'stream_start', id: event.response.id, model: event.response.model };
        break;
      case 'response.output_item.added': {
        const item = event.item;
        if (item.type === 'message') {
          texts.set(item.id, '');
          yield { type: 'text_start', textId: item.id };
        } else if (item.type === 'reasoning') {
          reasoning.set(item.id, '');
          yield { type: 'reasoning_start', reasoningId: item.id };
        } else if (item.type === 'function_call') {
          callIds.set(item.id ?? item.call_id, item.call_id);
          yield { type: 'tool_call_start', toolCallId: item.call_id, toolName: item.name };
        }
        break;
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        texts.set(event.item_id, (texts.get(event.item_id) ?? '') + event.delta);
        yield { type: 'text_delta', textId: event.item_id, delta: event.delta };
        break;
      case 'response.reasoning_summary_part.added':
        // Summary parts read as paragraphs, as in mapOpenAIOutput.
        if (event.summary_index > 0) {
          reasoning.set(event.item_id, `${reasoning.get(event.item_id) ?? ''}\n\n`);
          yield { type: 'reasoning_delta', reasoningId: event.item_id, delta: '\n\n' };
        }
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        reasoning.set(event.item_id, (reasoning.get(event.item_id) ?? '') + event.delta);
        yield { type: 'reasoning_delta', reasoningId: event.item_id, delta: event.delta };
        break;
      case 'response.function_call_arguments.delta':
        yield {
          type: 'tool_call_delta',
          toolCallId: callIds.get(event.item_id) ?? event.item_id,
          argumentsDelta: event.delta,
        };
        break;
      case 'response.output_item.done': {
        const item = event.item;
        if (item.type === 'message') {
          const text = item.content.map((c) => (c.type === 'output_text' ? c.text : c.refusal)).join('');
          yield { type: 'text_end', textId: item.id, text: text || (texts.get(item.id) ?? '') };
        } else if (item.type === 'reasoning') {
          yield {
            type: 'reasoning_end',
            reasoningId: item.id,
            text: reasoningText(item) || (reasoning.get(item.id) ?? ''),
            signature: encodeReasoningSignature(item),
          };
        } else if (item.type === 'function_call') {
          yield { type: 'tool_call_end', toolCall: toolCallPart(item.call_id, item.name, item.arguments) };
        }
        break;
      }
      case 'response.completed':
      case 'response.incomplete': {
        const response = mapOpenAIResponse(event.response, {
          provider,
          warnings: context.warnings,
          latencyMs: Date.now() - context.startedAt,
        });
        yield { type: 'finish', finishReason: response.finishReason, usage: response.usage, response };
        return;
      }
      case 'response.failed': {
        const error = event.response.error;
        throw openAIErrorFromCode(
          provider,
          error?.code,
          error?.message ?? 'the response failed',
          event.response,
        );
      }
      case 'error':
        throw openAIErrorFromCode(provider, event.code ?? undefined, event.message, event);
      default:
        break;
    }
  }
  throw new StreamError(`${provider}: the stream ended before response.completed`, { provider });
}
