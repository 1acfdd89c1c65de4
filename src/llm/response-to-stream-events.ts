import { definedFields } from '../shared/defined-fields.js';
import type { Response, StreamEvent } from './types.js';

/**
 * The events a provider would have streamed for a finished response, text split into `chunkSize`-character
 * deltas. Used by fakes and replay so streaming consumers see the real event grammar.
 */
export function responseToStreamEvents(response: Response, chunkSize = 16): StreamEvent[] {
  const events: StreamEvent[] = [{ type: 'stream_start', id: response.id, model: response.model }];
  const content = response.message.content;
  // A plain loop with no closures: replay and the scripted adapter call this for every streamed answer.
  for (let index = 0; index < content.length; index++) {
    const part = content[index]!;
    const id = `${index}`;
    if (part.kind === 'text') {
      events.push({ type: 'text_start', textId: id });
      for (let i = 0; i < part.text.length; i += chunkSize) {
        events.push({ type: 'text_delta', textId: id, delta: part.text.slice(i, i + chunkSize) });
      }
      events.push({ type: 'text_end', textId: id, text: part.text });
    } else if (part.kind === 'thinking') {
      events.push({ type: 'reasoning_start', reasoningId: id });
      for (let i = 0; i < part.text.length; i += chunkSize) {
        events.push({ type: 'reasoning_delta', reasoningId: id, delta: part.text.slice(i, i + chunkSize) });
      }
      events.push({
        type: 'reasoning_end',
        reasoningId: id,
        text: part.text,
        ...definedFields({ signature: part.signature }),
      });
    } else if (part.kind === 'redacted_thinking') {
      events.push({ type: 'reasoning_start', reasoningId: id, redacted: true });
      events.push({ type: 'reasoning_end', reasoningId: id, text: '' });
    } else if (part.kind === 'tool_call') {
      events.push({ type: 'tool_call_start', toolCallId: part.toolCallId, toolName: part.toolName });
      const json = part.argumentsJson;
      for (let i = 0; i < json.length; i += chunkSize) {
        events.push({
          type: 'tool_call_delta',
          toolCallId: part.toolCallId,
          argumentsDelta: json.slice(i, i + chunkSize),
        });
      }
      events.push({ type: 'tool_call_end', toolCall: part });
    }
  }
  events.push({ type: 'finish', finishReason: response.finishReason, usage: response.usage, response });
  return events;
}
