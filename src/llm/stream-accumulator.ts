import { definedFields } from '../shared/defined-fields.js';
import { toolCallPart } from './message.js';
import { createResponse } from './response.js';
import type { ContentPart, Response, StreamEvent } from './types.js';
import { createUsage } from './usage.js';

type Slot =
  | { kind: 'text'; id: string; text: string }
  | { kind: 'thinking'; id: string; text: string; signature?: string; redacted: boolean }
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
  // Slots are found by kind and id from the last one back (the part being streamed is almost always the
  // last): no map and no key string per stream or per event.
  #slots: Slot[] = [];
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
        this.#open({ kind: 'text', id: event.textId, text: '' });
        return;
      case 'text_delta': {
        // The hot path of a stream: the same text part again, so skip the key and the map lookup.
        const last = this.#lastText;
        if (last !== undefined && this.#lastTextId === event.textId) last.text += event.delta;
        else this.#text(event.textId).text += event.delta;
        return;
      }
      case 'text_end':
        this.#text(event.textId).text = event.text;
        return;
      case 'reasoning_start':
        this.#open({
          kind: 'thinking',
          id: event.reasoningId,
          text: '',
          redacted: event.redacted ?? false,
        });
        return;
      case 'reasoning_delta':
        this.#thinking(event.reasoningId).text += event.delta;
        return;
      case 'reasoning_end': {
        const slot = this.#thinking(event.reasoningId);
        slot.text = event.text;
        if (event.signature !== undefined) slot.signature = event.signature;
        return;
      }
      case 'tool_call_start':
        this.#open({ kind: 'tool_call', id: event.toolCallId, name: event.toolName, json: '' });
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
          this.#open({
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
              ...definedFields({ signature: slot.signature }),
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

  #open(slot: Slot): void {
    if (this.#final) this.#reset();
    this.#lastText = undefined;
    this.#slots.push(slot);
    if (slot.kind === 'tool_call') this.#lastCall = slot;
  }

  /** The slot of this kind and id opened last, if any. */
  #find<K extends Slot['kind']>(kind: K, id: string): Extract<Slot, { kind: K }> | undefined {
    const slots = this.#slots;
    for (let i = slots.length - 1; i >= 0; i--) {
      const slot = slots[i]!;
      if (slot.kind === kind && slot.id === id) return slot as Extract<Slot, { kind: K }>;
    }
    return undefined;
  }

  /** The open tool call with this id; the one opened last needs no search. */
  #call(id: string): Extract<Slot, { kind: 'tool_call' }> | undefined {
    const last = this.#lastCall;
    if (last !== undefined && last.id === id) return last;
    return this.#find('tool_call', id);
  }

  #text(textId: string): Extract<Slot, { kind: 'text' }> {
    let found = this.#find('text', textId);
    if (!found) {
      found = { kind: 'text', id: textId, text: '' };
      this.#open(found);
    }
    this.#lastText = found;
    this.#lastTextId = textId;
    return found;
  }

  #thinking(reasoningId: string): Extract<Slot, { kind: 'thinking' }> {
    const slot = this.#find('thinking', reasoningId);
    if (slot) return slot;
    const fresh: Extract<Slot, { kind: 'thinking' }> = {
      kind: 'thinking',
      id: reasoningId,
      text: '',
      redacted: false,
    };
    this.#open(fresh);
    return fresh;
  }

  #reset(): void {
    this.#lastText = undefined;
    this.#lastCall = undefined;
    this.#slots = [];
    this.#final = undefined;
  }
}
