import { type ScriptedReply, type ScriptedServer, type SseEvent, startScriptedServer } from './sse.js';

/**
 * A local stand-in for api.openai.com that speaks the Responses API (`POST /v1/responses`) and Chat
 * Completions (`POST /v1/chat/completions`), JSON and SSE, with OpenAI's error envelope. The payload
 * builders below produce the shapes the real API sends (checked against openai 6.49.0's types), so the
 * real SDK parses them exactly as it would parse production traffic.
 */

export const FAKE_OPENAI_KEY = 'sk-test-fake-openai';

export interface FakeOpenAIServer extends ScriptedServer {
  /** What to pass as the SDK's `baseURL` (it includes `/v1`). */
  readonly baseURL: string;
}

const ROUTES = new Set(['/v1/responses', '/v1/chat/completions']);

/**
 * Starts the fake; requests with another key get OpenAI's real 401, unknown paths its 404. With `apiKey` null
 * it checks no key, like a local server (Ollama, llama.cpp) that takes any request.
 */
export async function startFakeOpenAIServer(
  apiKey: string | null = FAKE_OPENAI_KEY,
): Promise<FakeOpenAIServer> {
  const server = await startScriptedServer((request) => {
    const path = request.url.split('?')[0] ?? '';
    if (!ROUTES.has(path)) {
      return openAIErrorReply(404, {
        message: `Invalid URL (${request.method} ${path})`,
        type: 'invalid_request_error',
      });
    }
    if (apiKey !== null && request.headers.authorization !== `Bearer ${apiKey}`) {
      return openAIErrorReply(401, {
        message:
          'Incorrect API key provided: sk-wrong. You can find your API key at https://platform.openai.com/account/api-keys.',
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      });
    }
    return undefined;
  });
  return Object.assign(server, { baseURL: `${server.origin}/v1` });
}

export interface OpenAIErrorBody {
  message: string;
  type: string;
  code?: string | null;
  param?: string | null;
}

/** OpenAI's error envelope: `{"error": {message, type, param, code}}`. */
export function openAIErrorReply(
  status: number,
  error: OpenAIErrorBody,
  headers: Record<string, string> = {},
): ScriptedReply {
  return {
    kind: 'json',
    status,
    headers,
    body: {
      error: {
        message: error.message,
        type: error.type,
        param: error.param ?? null,
        code: error.code ?? null,
      },
    },
  };
}

// ---------- Responses API ----------

export interface ResponsesUsage {
  input: number;
  output: number;
  cached?: number;
  reasoning?: number;
}

export function responsesUsage(usage: ResponsesUsage): Record<string, unknown> {
  return {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: usage.cached ?? 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
    total_tokens: usage.input + usage.output,
  };
}

export function messageItem(text: string, id = 'msg_1'): Record<string, unknown> {
  return {
    type: 'message',
    id,
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
  };
}

export function functionCallItem(
  callId: string,
  name: string,
  args: string,
  id = `fc_${callId}`,
): Record<string, unknown> {
  return { type: 'function_call', id, call_id: callId, name, arguments: args, status: 'completed' };
}

export function reasoningItem(
  summary: string,
  encrypted: string | null = null,
  id = 'rs_1',
): Record<string, unknown> {
  return {
    type: 'reasoning',
    id,
    summary: summary === '' ? [] : [{ type: 'summary_text', text: summary }],
    encrypted_content: encrypted,
  };
}

export interface ResponseObjectOptions {
  id?: string;
  model?: string;
  status?: 'completed' | 'incomplete' | 'failed' | 'in_progress';
  output?: Record<string, unknown>[];
  usage?: ResponsesUsage | null;
  incompleteReason?: 'max_output_tokens' | 'content_filter';
  error?: { code: string; message: string };
}

/** A `Response` object as `POST /v1/responses` returns it. */
export function responseObject(options: ResponseObjectOptions = {}): Record<string, unknown> {
  return {
    id: options.id ?? 'resp_1',
    object: 'response',
    created_at: 1_763_800_000,
    status: options.status ?? 'completed',
    error: options.error ?? null,
    incomplete_details: options.incompleteReason ? { reason: options.incompleteReason } : null,
    instructions: null,
    max_output_tokens: null,
    model: options.model ?? 'gpt-5.2-2026-01-01',
    output: options.output ?? [],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: options.usage === null ? null : responsesUsage(options.usage ?? { input: 10, output: 5 }),
    metadata: {},
  };
}

export function responsesJsonReply(
  options: ResponseObjectOptions = {},
  headers: Record<string, string> = {},
): ScriptedReply {
  return { kind: 'json', headers, body: responseObject(options) };
}

/** A Responses stream: each event named by its `type`, with `sequence_number` filled in. */
export function responsesSseReply(
  events: Record<string, unknown>[],
  extra: { breakAfter?: number; hangAfter?: number; delayMs?: number } = {},
): ScriptedReply {
  const sse: SseEvent[] = events.map((data, index) => ({
    event: String(data.type),
    data: { ...data, sequence_number: index },
  }));
  return { kind: 'sse', events: sse, ...extra };
}

/** The events the API emits for one streamed text message item. */
export function streamedMessageEvents(outputIndex: number, chunks: string[], id = 'msg_1') {
  const text = chunks.join('');
  const base = { item_id: id, output_index: outputIndex, content_index: 0 };
  return [
    {
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { type: 'message', id, status: 'in_progress', role: 'assistant', content: [] },
    },
    {
      type: 'response.content_part.added',
      ...base,
      part: { type: 'output_text', text: '', annotations: [] },
    },
    ...chunks.map((delta) => ({ type: 'response.output_text.delta', ...base, delta, logprobs: [] })),
    { type: 'response.output_text.done', ...base, text, logprobs: [] },
    {
      type: 'response.content_part.done',
      ...base,
      part: { type: 'output_text', text, annotations: [] },
    },
    { type: 'response.output_item.done', output_index: outputIndex, item: messageItem(text, id) },
  ];
}

/** The events for one streamed function call item, arguments arriving in `chunks`. */
export function streamedFunctionCallEvents(
  outputIndex: number,
  callId: string,
  name: string,
  chunks: string[],
) {
  const id = `fc_${callId}`;
  const args = chunks.join('');
  return [
    {
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { type: 'function_call', id, call_id: callId, name, arguments: '', status: 'in_progress' },
    },
    ...chunks.map((delta) => ({
      type: 'response.function_call_arguments.delta',
      item_id: id,
      output_index: outputIndex,
      delta,
    })),
    {
      type: 'response.function_call_arguments.done',
      item_id: id,
      output_index: outputIndex,
      name,
      arguments: args,
    },
    {
      type: 'response.output_item.done',
      output_index: outputIndex,
      item: functionCallItem(callId, name, args, id),
    },
  ];
}

/** The events for one reasoning item whose summary streams in `chunks`. */
export function streamedReasoningEvents(
  outputIndex: number,
  chunks: string[],
  encrypted: string | null = null,
  id = 'rs_1',
) {
  const text = chunks.join('');
  const base = { item_id: id, output_index: outputIndex, summary_index: 0 };
  return [
    {
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { type: 'reasoning', id, summary: [], encrypted_content: null },
    },
    { type: 'response.reasoning_summary_part.added', ...base, part: { type: 'summary_text', text: '' } },
    ...chunks.map((delta) => ({ type: 'response.reasoning_summary_text.delta', ...base, delta })),
    { type: 'response.reasoning_summary_text.done', ...base, text },
    { type: 'response.reasoning_summary_part.done', ...base, part: { type: 'summary_text', text } },
    {
      type: 'response.output_item.done',
      output_index: outputIndex,
      item: reasoningItem(text, encrypted, id),
    },
  ];
}

/** `response.created` + `response.in_progress`, then `items`, then the terminal event. */
export function responsesStream(
  items: Record<string, unknown>[],
  final: ResponseObjectOptions,
  terminal: 'response.completed' | 'response.incomplete' | 'response.failed' = 'response.completed',
): Record<string, unknown>[] {
  const started = responseObject({ ...final, status: 'in_progress', output: [], usage: null });
  return [
    { type: 'response.created', response: started },
    { type: 'response.in_progress', response: started },
    ...items,
    { type: terminal, response: responseObject(final) },
  ];
}

// ---------- Chat Completions ----------

export interface ChatUsage {
  prompt: number;
  completion: number;
  cached?: number;
  reasoning?: number;
}

export function chatUsage(usage: ChatUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
    prompt_tokens_details: { cached_tokens: usage.cached ?? 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoning ?? 0, audio_tokens: 0 },
  };
}

export interface ChatToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ChatCompletionOptions {
  content?: string | null;
  toolCalls?: ChatToolCall[];
  finishReason?: 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';
  usage?: ChatUsage;
  model?: string;
  reasoningContent?: string;
}

/** A `chat.completion` object as `POST /v1/chat/completions` returns it. */
export function chatCompletionReply(options: ChatCompletionOptions = {}): ScriptedReply {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: options.content === undefined ? 'Hello' : options.content,
    refusal: null,
    annotations: [],
  };
  if (options.reasoningContent !== undefined) message.reasoning_content = options.reasoningContent;
  if (options.toolCalls) {
    message.tool_calls = options.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    kind: 'json',
    body: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_763_800_000,
      model: options.model ?? 'local-model',
      choices: [{ index: 0, message, logprobs: null, finish_reason: options.finishReason ?? 'stop' }],
      usage: chatUsage(options.usage ?? { prompt: 10, completion: 5 }),
      system_fingerprint: 'fp_fake',
    },
  };
}

/** One `chat.completion.chunk`; `delta` is the choice delta, `usage` the trailing usage-only chunk. */
export function chatChunk(
  delta: Record<string, unknown> | null,
  finishReason: string | null = null,
  usage?: ChatUsage,
): Record<string, unknown> {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_763_800_000,
    model: 'local-model',
    system_fingerprint: 'fp_fake',
    choices: delta === null ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(usage ? { usage: chatUsage(usage) } : {}),
  };
}

/** A chat stream: `data:` lines only, closed by `data: [DONE]`. */
export function chatSseReply(
  chunks: Record<string, unknown>[],
  extra: { breakAfter?: number; hangAfter?: number; done?: boolean } = {},
): ScriptedReply {
  const { done, ...rest } = extra;
  const events: SseEvent[] = chunks.map((data) => ({ data }));
  if (done !== false) events.push({ data: '[DONE]' });
  return { kind: 'sse', events, ...rest };
}
