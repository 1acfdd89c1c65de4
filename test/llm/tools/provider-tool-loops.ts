import { LLMClient } from '../../../src/llm/client.js';
import { AnthropicAdapter } from '../../../src/llm/providers/anthropic/anthropic-adapter.js';
import { GeminiAdapter } from '../../../src/llm/providers/gemini/gemini-adapter.js';
import { OpenAIAdapter } from '../../../src/llm/providers/openai/openai-adapter.js';
import { OpenAICompatibleAdapter } from '../../../src/llm/providers/openai-compatible/openai-compatible-adapter.js';
import {
  anthropicJsonReply,
  anthropicStreamReply,
  FAKE_ANTHROPIC_KEY,
  startFakeAnthropicServer,
} from '../../helpers/fake-anthropic-server.js';
import {
  FAKE_GEMINI_KEY,
  geminiJsonReply,
  geminiSseReply,
  startFakeGeminiServer,
} from '../../helpers/fake-gemini-server.js';
import {
  chatChunk,
  chatCompletionReply,
  chatSseReply,
  FAKE_OPENAI_KEY,
  functionCallItem,
  messageItem,
  responsesJsonReply,
  responsesSseReply,
  responsesStream,
  startFakeOpenAIServer,
  streamedFunctionCallEvents,
  streamedMessageEvents,
} from '../../helpers/fake-openai-server.js';
import type { ScriptedReply, ScriptedServer } from '../../helpers/sse.js';

/** A tool call as the fake server sends it: `args` is the raw JSON text the model produced. */
export interface WireCall {
  id: string;
  name: string;
  args: string;
}

/** A tool result as it arrived at the server, normalised across the four wire formats. */
export interface WireResult {
  name?: string;
  text: string;
  isError: boolean;
  images: number;
}

/** One provider's fake server plus how to script tool calls on it and read tool results back. */
export interface ProviderLoop {
  name: string;
  model: string;
  start(): Promise<{ server: ScriptedServer; client: LLMClient }>;
  callsReply(calls: WireCall[], stream: boolean): ScriptedReply;
  textReply(text: string, stream: boolean): ScriptedReply;
  /** The tool results carried by a request body. */
  results(body: Record<string, unknown>): WireResult[];
}

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

export const providerLoops: ProviderLoop[] = [
  {
    name: 'anthropic',
    model: 'claude-sonnet-4-6',
    async start() {
      const server = await startFakeAnthropicServer();
      const adapter = new AnthropicAdapter({ apiKey: FAKE_ANTHROPIC_KEY, baseURL: server.origin, env: {} });
      return { server, client: new LLMClient({ adapters: [adapter] }) };
    },
    callsReply(calls, stream) {
      const message = {
        content: calls.map((c) => ({
          type: 'tool_use' as const,
          id: c.id,
          name: c.name,
          input: JSON.parse(c.args) as Json,
        })),
        stop_reason: 'tool_use',
      };
      return stream ? anthropicStreamReply(message) : anthropicJsonReply(message);
    },
    textReply(text, stream) {
      const message = { content: [{ type: 'text' as const, text }], stop_reason: 'end_turn' };
      return stream ? anthropicStreamReply(message) : anthropicJsonReply(message);
    },
    results(body) {
      const last = list(body['messages']).at(-1);
      return list(last?.['content'])
        .filter((block) => block['type'] === 'tool_result')
        .map((block) => {
          const content = block['content'];
          const parts = list(content);
          return {
            text:
              typeof content === 'string'
                ? content
                : parts
                    .filter((p) => p['type'] === 'text')
                    .map((p) => String(p['text']))
                    .join(''),
            isError: block['is_error'] === true,
            images: parts.filter((p) => p['type'] === 'image').length,
          };
        });
    },
  },
  {
    name: 'openai',
    model: 'gpt-5.2',
    async start() {
      const server = await startFakeOpenAIServer();
      const adapter = new OpenAIAdapter({ apiKey: FAKE_OPENAI_KEY, baseURL: server.baseURL, env: {} });
      return { server, client: new LLMClient({ adapters: [adapter] }) };
    },
    callsReply(calls, stream) {
      if (!stream)
        return responsesJsonReply({ output: calls.map((c) => functionCallItem(c.id, c.name, c.args)) });
      const items = calls.flatMap((c, i) => streamedFunctionCallEvents(i, c.id, c.name, [c.args]));
      return responsesSseReply(
        responsesStream(items, { output: calls.map((c) => functionCallItem(c.id, c.name, c.args)) }),
      );
    },
    textReply(text, stream) {
      if (!stream) return responsesJsonReply({ output: [messageItem(text)] });
      return responsesSseReply(
        responsesStream(streamedMessageEvents(0, [text]), { output: [messageItem(text)] }),
      );
    },
    results(body) {
      return list(body['input'])
        .filter((item) => item['type'] === 'function_call_output')
        .map((item) => {
          const output = item['output'];
          const parts = list(output);
          return {
            text:
              typeof output === 'string'
                ? output
                : parts
                    .filter((p) => p['type'] === 'input_text')
                    .map((p) => String(p['text']))
                    .join(''),
            // The Responses API has no error flag on function output; the text says it.
            isError: /^(Unknown tool|Invalid arguments|Arguments for|Tool ")/.test(
              typeof output === 'string' ? output : '',
            ),
            images: parts.filter((p) => p['type'] === 'input_image').length,
          };
        });
    },
  },
  {
    name: 'gemini',
    model: 'gemini-2.5-pro',
    async start() {
      const server = await startFakeGeminiServer();
      const adapter = new GeminiAdapter({ apiKey: FAKE_GEMINI_KEY, baseURL: server.origin, env: {} });
      return { server, client: new LLMClient({ adapters: [adapter] }) };
    },
    callsReply(calls, stream) {
      const chunk = {
        parts: calls.map((c) => ({ functionCall: { name: c.name, args: JSON.parse(c.args) as Json } })),
        finishReason: 'STOP',
      };
      return stream ? geminiSseReply([chunk]) : geminiJsonReply(chunk);
    },
    textReply(text, stream) {
      const chunk = { parts: [{ text }], finishReason: 'STOP' };
      return stream ? geminiSseReply([chunk]) : geminiJsonReply(chunk);
    },
    results(body) {
      const last = list(body['contents']).at(-1);
      return list(last?.['parts'])
        .filter((part) => part['functionResponse'] !== undefined)
        .map((part) => {
          const fr = part['functionResponse'] as Json;
          const response = fr['response'] as Json;
          return {
            name: String(fr['name']),
            text: String(response['error'] ?? response['result']),
            isError: response['error'] !== undefined,
            images: list(fr['parts']).length,
          };
        });
    },
  },
  {
    name: 'openai-compatible',
    model: 'local-model',
    async start() {
      const server = await startFakeOpenAIServer();
      const adapter = new OpenAICompatibleAdapter({
        apiKey: FAKE_OPENAI_KEY,
        baseURL: server.baseURL,
        env: {},
      });
      return { server, client: new LLMClient({ adapters: [adapter] }) };
    },
    callsReply(calls, stream) {
      if (!stream)
        return chatCompletionReply({
          content: null,
          toolCalls: calls.map((c) => ({ ...c, arguments: c.args })),
          finishReason: 'tool_calls',
        });
      return chatSseReply([
        chatChunk({ role: 'assistant', content: null }),
        ...calls.map((c, index) =>
          chatChunk({
            tool_calls: [
              { index, id: c.id, type: 'function', function: { name: c.name, arguments: c.args } },
            ],
          }),
        ),
        chatChunk({}, 'tool_calls'),
        chatChunk(null, null, { prompt: 10, completion: 5 }),
      ]);
    },
    textReply(text, stream) {
      if (!stream) return chatCompletionReply({ content: text });
      return chatSseReply([
        chatChunk({ role: 'assistant', content: text }),
        chatChunk({}, 'stop'),
        chatChunk(null, null, { prompt: 10, completion: 5 }),
      ]);
    },
    results(body) {
      const messages = list(body['messages']);
      const tools = messages.filter((m) => m['role'] === 'tool');
      const after = messages.at(-1);
      const images =
        after?.['role'] === 'user'
          ? list(after['content']).filter((p) => p['type'] === 'image_url').length
          : 0;
      return tools.map((m, index) => ({
        text: String(m['content']),
        isError: /^(Unknown tool|Invalid arguments|Arguments for|Tool ")/.test(String(m['content'])),
        // Chat Completions tool messages are text-only; the images follow in one user message.
        images: index === tools.length - 1 ? images : 0,
      }));
    },
  },
];
