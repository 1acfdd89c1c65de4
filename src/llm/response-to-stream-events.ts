import type { Response, StreamEvent } from './types.js';

/**
 * The events a provider would have streamed for a finished response, text split into `chunkSize`-character
 * deltas. Used by fakes and replay so streaming consumers see the real event grammar.
 */
export function responseToStreamEvents(response: Response, chunkSize = 16): StreamEvent[] {
  const events: StreamEvent[] = [{ type: 'stream_start', id: response.id, model: response.model }];
  const split = (text: string): string[] => {
    const out: string[] = [];
    for (let i = 0; i < text.length; i += chunkSize) out.push(text.slice(i, i + chunkSize));
    return out;
  };
  response.message.content.forEach((part, index) => {
    const id = `${index}`;
    if (part.kind === 'text') {
      events.push({ type: 'text_start', textId: id });
      for (const delta of split(part.text)) events.push({ type: 'text_delta', textId: id, delta });
      events.push({ type: 'text_end', textId: id, text: part.text });
    } else if (part.kind === 'thinking') {
      events.push({ type: 'reasoning_start', reasoningId: id });
      for (const delta of split(part.text)) events.push({ type: 'reasoning_delta', reasoningId: id, delta });
      events.push({
        type: 'reasoning_end',
        reasoningId: id,
        text: part.text,
        ...(part.signature !== undefined ? { signature: part.signature } : {}),
      });
    } else if (part.kind === 'redacted_thinking') {
      events.push({ type: 'reasoning_start', reasoningId: id, redacted: true });
      events.push({ type: 'reasoning_end', reasoningId: id, text: '' });
    } else if (part.kind === 'tool_call') {
      events.push({ type: 'tool_call_start', toolCallId: part.toolCallId, toolName: part.toolName });
      for (const delta of split(part.argumentsJson)) {
        events.push({ type: 'tool_call_delta', toolCallId: part.toolCallId, argumentsDelta: delta });
      }
      events.push({ type: 'tool_call_end', toolCall: part });
    }
  });
  events.push({ type: 'finish', finishReason: response.finishReason, usage: response.usage, response });
  return events;
}
