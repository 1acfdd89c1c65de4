import { type ScriptedReply, type ScriptedServer, type SseEvent, startScriptedServer } from './sse.js';

/**
 * A local stand-in for api.anthropic.com speaking the Messages API (`POST /v1/messages`), JSON and SSE, with
 * Anthropic's error envelope. Shapes follow the published wire format and @anthropic-ai/sdk 1.12.0's types:
 * SSE frames carry both `event:` and a JSON `type`, in the order message_start, content_block_start,
 * ping, content_block_delta…, content_block_stop, message_delta (cumulative usage), message_stop.
 */

export const FAKE_ANTHROPIC_KEY = 'sk-ant-test-fake';

export type FakeBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | {
      type: 'tool_use';
      id: string;
      name: string;
      input: Record<string, unknown>;
      /** The argument JSON as streamed, when it is not `input`'s: a call cut off by max_tokens stops mid-JSON. */
      partialJson?: string;
    };

export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

export interface FakeMessage {
  id?: string;
  model?: string;
  content: FakeBlock[];
  stop_reason?: string;
  usage?: FakeUsage;
}

/** Starts the fake. Accepts the key as `x-api-key` or `authorization: Bearer` (SDK 1.x sends Bearer). */
export async function startFakeAnthropicServer(apiKey = FAKE_ANTHROPIC_KEY): Promise<ScriptedServer> {
  return startScriptedServer((request) => {
    const path = request.url.split('?')[0] ?? '';
    if (path !== '/v1/messages') {
      return anthropicErrorReply(404, 'not_found_error', `Not found: ${request.method} ${path}`);
    }
    const bearer = request.headers.authorization === `Bearer ${apiKey}`;
    if (!bearer && request.headers['x-api-key'] !== apiKey) {
      return anthropicErrorReply(401, 'authentication_error', 'invalid x-api-key');
    }
    return undefined;
  });
}

/** Anthropic's error envelope. */
export function anthropicErrorReply(
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): ScriptedReply {
  return {
    kind: 'json',
    status,
    headers: { 'request-id': 'req_fake', ...headers },
    body: { type: 'error', error: { type, message }, request_id: 'req_fake' },
  };
}

function usageOf(message: FakeMessage): Required<FakeUsage> {
  return {
    input_tokens: 10,
    output_tokens: 5,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    ...message.usage,
  };
}

/** The non-streaming JSON body of a Message. */
export function anthropicMessageBody(message: FakeMessage): Record<string, unknown> {
  return {
    id: message.id ?? 'msg_fake_01',
    type: 'message',
    role: 'assistant',
    model: message.model ?? 'claude-sonnet-4-6',
    content: message.content,
    stop_reason: message.stop_reason ?? 'end_turn',
    stop_sequence: null,
    usage: usageOf(message),
  };
}

export function anthropicJsonReply(message: FakeMessage): ScriptedReply {
  return { kind: 'json', body: anthropicMessageBody(message) };
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [''];
}

/** The SSE events the API sends for a message, text and JSON split into `chunkSize`-character deltas. */
export function anthropicStreamEvents(message: FakeMessage, chunkSize = 4): SseEvent[] {
  const usage = usageOf(message);
  const events: SseEvent[] = [];
  const push = (data: { type: string } & Record<string, unknown>) => events.push({ event: data.type, data });
  push({
    type: 'message_start',
    message: {
      ...anthropicMessageBody({ ...message, content: [] }),
      content: [],
      stop_reason: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  message.content.forEach((block, index) => {
    if (block.type === 'text') {
      push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      if (index === 0) push({ type: 'ping' });
      for (const text of chunks(block.text, chunkSize)) {
        push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
      }
    } else if (block.type === 'thinking') {
      push({
        type: 'content_block_start',
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      });
      for (const thinking of chunks(block.thinking, chunkSize)) {
        push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } });
      }
      push({
        type: 'content_block_delta',
        index,
        delta: { type: 'signature_delta', signature: block.signature },
      });
    } else if (block.type === 'redacted_thinking') {
      push({ type: 'content_block_start', index, content_block: block });
    } else {
      push({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } });
      for (const partial_json of chunks(block.partialJson ?? JSON.stringify(block.input), chunkSize)) {
        push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
      }
    }
    push({ type: 'content_block_stop', index });
  });
  push({
    type: 'message_delta',
    delta: { stop_reason: message.stop_reason ?? 'end_turn', stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  push({ type: 'message_stop' });
  return events;
}

export function anthropicStreamReply(
  message: FakeMessage,
  options: { chunkSize?: number; breakAfter?: number; delayMs?: number } = {},
): ScriptedReply {
  return {
    kind: 'sse',
    events: anthropicStreamEvents(message, options.chunkSize),
    ...(options.breakAfter !== undefined ? { breakAfter: options.breakAfter } : {}),
    ...(options.delayMs !== undefined ? { delayMs: options.delayMs } : {}),
  };
}

/** A coding agent's two turns that write one file with `write_file`, then say so. */
export function agentWritesFile(path: string, content: string): ScriptedReply[] {
  const usage = { input_tokens: 100, output_tokens: 10 };
  return [
    anthropicStreamReply({
      content: [{ type: 'tool_use', id: 't1', name: 'write_file', input: { path, content } }],
      stop_reason: 'tool_use',
      usage,
    }),
    anthropicStreamReply({ content: [{ type: 'text', text: `Wrote ${path}.` }], usage }),
  ];
}

/** A stream-level error event, as the API sends when it overloads mid-stream. */
export function anthropicErrorEvent(type: string, message: string): SseEvent {
  return { event: 'error', data: { type: 'error', error: { type, message } } };
}
