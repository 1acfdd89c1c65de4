import { toolCallPart } from './message.js';
import { createResponse } from './response.js';
import type { ContentPart, Response, StreamEvent } from './types.js';
import { createUsage } from './usage.js';

type Slot =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string; signature?: string; redacted: boolean }
  | { kind: 'tool_call'; id: string; name: string; json: string; done?: ContentPart };

/**
 * Folds stream events into a Response: text, reasoning and tool calls in the order they started, so the
 * response so far is available at any point of a stream. Once the `finish` event arrives, `response` is the
 * adapter's assembled one (signatures, usage and finish reason included).
 *
 * @example
 * const accumulator = new StreamAccumulator();
 * for await (const event of client.stream(request)) accumulator.add(event);
 * console.log(accumulator.response.text);
 */
export class StreamAccumulator {
  #slots: Slot[] = [];
  #byId = new Map<string, Slot>();
  #id = '';
  #model = '';
  #provider = '';
  #final: Response | undefined;
  #lastText: Extract<Slot, { kind: 'text' }> | undefined;
  #lastTextId = '';
  #lastCall: Extract<Slot, { kind: 'tool_call' }> | undefined;

  /** Fold in one event; events of a later tool round (`step_finish` then more) start a fresh response. */
  add(event: StreamEvent): void {
    switch (event.type) {
      case 'stream_start':
        if (this.#final) this.#reset();
        this.#id = event.id ?? this.#id;
        this.#model = event.model ?? this.#model;
        return;
      case 'text_start':
        this.#open(`t:${event.textId}`, { kind: 'text', text: '' });
        return;
      case 'text_delta': {
        // The hot path of a stream: the same text part again, so skip the key and the map lookup.
        const last = this.#lastText;
        if (last !== undefined && this.#lastTextId === event.textId) last.text += event.delta;
        else this.#text(`t:${event.textId}`, event.textId).text += event.delta;
        return;
      }
      case 'text_end':
        this.#text(`t:${event.textId}`, event.textId).text = event.text;
        return;
      case 'reasoning_start':
        this.#open(`r:${event.reasoningId}`, {
          kind: 'thinking',
          text: '',
          redacted: event.redacted ?? false,
        });
        return;
      case 'reasoning_delta':
        this.#thinking(`r:${event.reasoningId}`).text += event.delta;
        return;
      case 'reasoning_end': {
        const slot = this.#thinking(`r:${event.reasoningId}`);
        slot.text = event.text;
        if (event.signature !== undefined) slot.signature = event.signature;
        return;
      }
      case 'tool_call_start':
        this.#open(`c:${event.toolCallId}`, {
          kind: 'tool_call',
          id: event.toolCallId,
          name: event.toolName,
          json: '',
        });
        return;
      case 'tool_call_delta': {
        const slot = this.#call(event.toolCallId);
        if (slot) slot.json += event.argumentsDelta;
        return;
      }
      case 'tool_call_end': {
        const call = event.toolCall;
        const slot = this.#call(call.toolCallId);
        if (slot) slot.done = call;
        else
          this.#open(`c:${call.toolCallId}`, {
            kind: 'tool_call',
            id: call.toolCallId,
            name: call.toolName,
            json: call.argumentsJson,
            done: call,
          });
        return;
      }
      case 'step_finish':
      case 'finish':
        this.#final = event.response;
        this.#provider = event.response.provider;
        return;
      default:
        return;
    }
  }

  /** True once a `finish` (or `step_finish`) event has been folded in. */
  get finished(): boolean {
    return this.#final !== undefined;
  }

  /** The text so far. */
  get text(): string {
    if (this.#final) return this.#final.text;
    return this.#slots.map((slot) => (slot.kind === 'text' ? slot.text : '')).join('');
  }

  /** The final response once finished; before that, the response so far (finish reason `other`, no usage). */
  get response(): Response {
    if (this.#final) return this.#final;
    const content: ContentPart[] = this.#slots.map((slot): ContentPart => {
      if (slot.kind === 'text') return { kind: 'text', text: slot.text };
      if (slot.kind === 'thinking') {
        return slot.redacted
          ? { kind: 'redacted_thinking', data: '' }
          : {
              kind: 'thinking',
              text: slot.text,
              ...(slot.signature !== undefined ? { signature: slot.signature } : {}),
            };
      }
      return slot.done ?? toolCallPart(slot.id, slot.name, slot.json);
    });
    return createResponse({
      id: this.#id,
      model: this.#model,
      provider: this.#provider,
      message: { role: 'assistant', content },
      finishReason: { reason: 'other' },
      usage: createUsage({ inputTokens: 0, outputTokens: 0 }),
    });
  }

  #open(key: string, slot: Slot): void {
    if (this.#final) this.#reset();
    this.#lastText = undefined;
    this.#slots.push(slot);
    this.#byId.set(key, slot);
    if (slot.kind === 'tool_call') this.#lastCall = slot;
  }

  /** The open tool call with this id; the one opened last needs no key and no map lookup. */
  #call(id: string): Extract<Slot, { kind: 'tool_call' }> | undefined {
    const last = this.#lastCall;
    if (last !== undefined && last.id === id) return last;
    const slot = this.#byId.get(`c:${id}`);
    return slot?.kind === 'tool_call' ? slot : undefined;
  }

  #text(key: string, textId: string): Extract<Slot, { kind: 'text' }> {
    const slot = this.#byId.get(key);
    const found: Extract<Slot, { kind: 'text' }> = slot?.kind === 'text' ? slot : { kind: 'text', text: '' };
    if (found !== slot) this.#open(key, found);
    this.#lastText = found;
    this.#lastTextId = textId;
    return found;
  }

  #thinking(key: string): Extract<Slot, { kind: 'thinking' }> {
    const slot = this.#byId.get(key);
    if (slot?.kind === 'thinking') return slot;
    const fresh: Extract<Slot, { kind: 'thinking' }> = { kind: 'thinking', text: '', redacted: false };
    this.#open(key, fresh);
    return fresh;
  }

  #reset(): void {
    this.#lastText = undefined;
    this.#lastCall = undefined;
    this.#slots = [];
    this.#byId = new Map();
    this.#final = undefined;
  }
}
