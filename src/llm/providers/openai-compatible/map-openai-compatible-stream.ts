import { randomUUID } from 'node:crypto';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { StreamError } from '../../errors/stream-error.js';
import { toolCallPart } from '../../message.js';
import { createResponse } from '../../response.js';
import type { ContentPart, StreamEvent } from '../../types.js';
import { mapOpenAICompatibleFinishReason } from './map-openai-compatible-finish-reason.js';
import { mapOpenAICompatibleUsage, reasoningOf } from './map-openai-compatible-response.js';

export interface CompatibleStreamContext {
  provider: string;
  model: string;
  warnings: string[];
  startedAt: number;
}

interface Block {
  kind: 'text' | 'reasoning';
  id: string;
  text: string;
}

interface PendingCall {
  id: string;
  name: string;
  args: string;
  ended: boolean;
}

function endBlock(block: Block): StreamEvent {
  return block.kind === 'text'
    ? { type: 'text_end', textId: block.id, text: block.text }
    : { type: 'reasoning_end', reasoningId: block.id, text: block.text };
}

/**
 * Chat Completions chunks → unified events. Content and reasoning deltas open a block each; tool calls are
 * addressed by `index`: the first delta of an index names the call, later ones append argument text, and a
 * call ends when the next index starts or the stream finishes. The usage chunk (`stream_options.include_usage`)
 * comes after the finish reason, so `finish` is emitted when the stream closes (`data: [DONE]`).
 */
export async function* mapOpenAICompatibleStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  context: CompatibleStreamContext,
): AsyncGenerator<StreamEvent> {
  let started = false;
  let id = '';
  let model = context.model;
  let open: Block | undefined;
  const texts = { text: '', reasoning: '' };
  const calls = new Map<number, PendingCall>();
  let current: PendingCall | undefined;
  let finishRaw: string | undefined;
  let usage: CompletionUsage | undefined;

  let blocks = 0;

  function* closeBlock(): Generator<StreamEvent> {
    if (!open) return;
    texts[open.kind] += open.text;
    yield endBlock(open);
    open = undefined;
  }
  function* openBlock(kind: Block['kind']): Generator<StreamEvent, Block> {
    if (open?.kind === kind) return open;
    yield* closeBlock();
    open = { kind, id: `${kind}_${blocks++}`, text: '' };
    yield kind === 'text'
      ? { type: 'text_start', textId: open.id }
      : { type: 'reasoning_start', reasoningId: open.id };
    return open;
  }
  function* endCall(call: PendingCall | undefined): Generator<StreamEvent> {
    if (!call || call.ended) return;
    call.ended = true;
    yield { type: 'tool_call_end', toolCall: toolCallPart(call.id, call.name, call.args) };
  }

  for await (const chunk of chunks) {
    if (!started) {
      started = true;
      id = chunk.id;
      model = chunk.model || model;
      yield { type: 'stream_start', id, model };
    }
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) continue;
    const delta = choice.delta;
    const reasoning = reasoningOf(delta);
    if (reasoning !== undefined) {
      const block = yield* openBlock('reasoning');
      block.text += reasoning;
      yield { type: 'reasoning_delta', reasoningId: block.id, delta: reasoning };
    }
    const content = delta.content ?? delta.refusal;
    if (content) {
      const block = yield* openBlock('text');
      block.text += content;
      yield { type: 'text_delta', textId: block.id, delta: content };
    }
    for (const toolDelta of delta.tool_calls ?? []) {
      let call = calls.get(toolDelta.index);
      if (!call) {
        yield* closeBlock();
        yield* endCall(current);
        call = {
          id: toolDelta.id ?? `call_${randomUUID()}`,
          name: toolDelta.function?.name ?? '',
          args: '',
          ended: false,
        };
        calls.set(toolDelta.index, call);
        current = call;
        yield { type: 'tool_call_start', toolCallId: call.id, toolName: call.name };
      }
      const argumentsDelta = toolDelta.function?.arguments;
      if (argumentsDelta) {
        call.args += argumentsDelta;
        yield { type: 'tool_call_delta', toolCallId: call.id, argumentsDelta };
      }
    }
    if (choice.finish_reason) finishRaw = choice.finish_reason;
  }

  if (finishRaw === undefined) {
    throw new StreamError(`${context.provider}: the stream ended before a finish reason`, {
      provider: context.provider,
    });
  }
  yield* closeBlock();
  for (const call of calls.values()) yield* endCall(call);

  const content: ContentPart[] = [];
  if (texts.reasoning !== '') content.push({ kind: 'thinking', text: texts.reasoning });
  if (texts.text !== '') content.push({ kind: 'text', text: texts.text });
  for (const call of calls.values()) content.push(toolCallPart(call.id, call.name, call.args));
  const response = createResponse({
    id,
    model,
    provider: context.provider,
    message: { role: 'assistant', content },
    finishReason: mapOpenAICompatibleFinishReason(finishRaw, calls.size > 0),
    usage: mapOpenAICompatibleUsage(usage),
    warnings: context.warnings,
    latencyMs: Date.now() - context.startedAt,
  });
  yield { type: 'finish', finishReason: response.finishReason, usage: response.usage, response };
}
