import type { OpenAI } from 'openai';
import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import { definedFields } from '../../../shared/defined-fields.js';
import { ConfigurationError } from '../../errors/configuration-error.js';
import { InvalidRequestError } from '../../errors/invalid-request-error.js';
import type { ProviderAdapter } from '../../provider-adapter.js';
import { callTimeouts } from '../../timeout-config.js';
import type {
  CallOptions,
  Request,
  Response,
  StreamEvent,
  TimeoutConfig,
  ToolChoice,
  ToolChoiceMode,
} from '../../types.js';
import { rateLimitFromHeaders } from '../openai/map-openai-response.js';
import { LazySdk } from '../shared/lazy-sdk.js';
import {
  deadlineErrorContext,
  type RequestDeadline,
  startRequestDeadline,
} from '../shared/request-deadline.js';
import { convertToOpenAICompatibleMessages } from './convert-to-openai-compatible-messages.js';
import { mapOpenAICompatibleError } from './map-openai-compatible-error.js';
import { mapOpenAICompatibleResponse } from './map-openai-compatible-response.js';
import { mapOpenAICompatibleStream } from './map-openai-compatible-stream.js';

export interface OpenAICompatibleAdapterOptions {
  /** The provider name requests route by and errors carry; defaults to `openai-compatible`. */
  name?: string;
  /**
   * Defaults to `OPENAI_COMPATIBLE_API_KEY`. Optional: without one (local servers such as Ollama or llama.cpp
   * need none) requests carry no `Authorization` header at all.
   */
  apiKey?: string;
  /** The server's OpenAI-style root, usually ending in `/v1`. Defaults to `OPENAI_COMPATIBLE_BASE_URL`. */
  baseURL?: string;
  /** Model ids (or prefixes ending in `*`) this adapter claims; by default it claims none and is chosen by name. */
  models?: string[];
  fetch?: typeof globalThis.fetch;
  /** A call fails with RequestTimeoutError when no response (or, streaming, no next chunk) comes within this. */
  timeoutMs?: number;
  /** Connect / request / stream-read limits (see TimeoutConfig); the client's and the call's override these. */
  timeouts?: Partial<TimeoutConfig>;
  defaultHeaders?: Record<string, string>;
  /** Where the `OPENAI_COMPATIBLE_*` fallbacks are read; defaults to process.env. */
  env?: Record<string, string | undefined>;
}

type Body = Omit<ChatCompletionCreateParamsBase, 'stream'>;

/** Never sent: see where the SDK is built. */
const NO_KEY = 'no-key';

function toolChoice(choice: ToolChoice, provider: string): ChatCompletionToolChoiceOption {
  if (choice.mode !== 'named') return choice.mode;
  if (!choice.toolName)
    throw new InvalidRequestError(`${provider}: a named tool choice needs toolName`, { provider });
  return { type: 'function', function: { name: choice.toolName } };
}

/** The Chat Completions body for a unified request (without `stream`). */
export async function buildOpenAICompatibleRequest(
  request: Request,
  provider = 'openai-compatible',
): Promise<Body> {
  const body: Body = {
    model: request.model,
    messages: await convertToOpenAICompatibleMessages(request.messages, request.systemPrompt, provider),
  };
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        ...definedFields({ strict: tool.strict }),
      },
    }));
    if (request.toolChoice) body.tool_choice = toolChoice(request.toolChoice, provider);
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  // `max_tokens`, not `max_completion_tokens`: it is the one every compatible server understands.
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.stopSequences && request.stopSequences.length > 0) body.stop = request.stopSequences;
  if (request.reasoningEffort !== undefined) body.reasoning_effort = request.reasoningEffort;
  const format = request.responseFormat;
  if (format?.type === 'json_schema') {
    body.response_format = {
      type: 'json_schema',
      json_schema: {
        name: format.name ?? 'response',
        schema: format.jsonSchema,
        strict: format.strict ?? true,
      },
    };
  } else if (format?.type === 'json') {
    body.response_format = { type: 'json_object' };
  }
  Object.assign(body, request.providerOptions?.[provider] ?? {});
  return body;
}

/**
 * An adapter for servers that speak OpenAI's Chat Completions (`POST {baseURL}/chat/completions`): vLLM,
 * Ollama, LM Studio, llama.cpp, OpenRouter, Together, Groq, ... It uses the official `openai` SDK, imported
 * and built at the first call, with SDK retries off (the LLM client retries).
 *
 * @example
 * const local = new OpenAICompatibleAdapter({ baseURL: 'http://127.0.0.1:11434/v1', apiKey: 'ollama' });
 * const response = await local.complete({ model: 'qwen3:8b', messages: [Message.user('Hello')] });
 */
export class OpenAICompatibleAdapter implements ProviderAdapter {
  readonly name: string;
  readonly #options: OpenAICompatibleAdapterOptions;

  constructor(options: OpenAICompatibleAdapterOptions = {}) {
    this.#options = options;
    this.name = options.name ?? 'openai-compatible';
  }

  supportsModel(model: string): boolean {
    return (this.#options.models ?? []).some((pattern) =>
      pattern.endsWith('*') ? model.startsWith(pattern.slice(0, -1)) : model === pattern,
    );
  }

  supportsToolChoice(_mode: ToolChoiceMode): boolean {
    return true;
  }

  readonly #sdk = new LazySdk(async (): Promise<OpenAI> => {
    const options = this.#options;
    const env = options.env ?? process.env;
    const apiKey = options.apiKey ?? env.OPENAI_COMPATIBLE_API_KEY;
    const baseURL = options.baseURL ?? env.OPENAI_COMPATIBLE_BASE_URL;
    const provider = this.name;
    if (!baseURL) {
      throw new ConfigurationError(
        `${provider}: no server URL; set OPENAI_COMPATIBLE_BASE_URL or pass baseURL`,
        {
          provider,
        },
      );
    }
    const { OpenAI } = await import('openai');
    // The SDK refuses to start without some credential; with no key it gets an inert value and loses the
    // header it would make of it (a null default header unsets it), so a keyless server sees none.
    const headers = apiKey ? options.defaultHeaders : { ...options.defaultHeaders, Authorization: null };
    return new OpenAI({
      apiKey: apiKey || NO_KEY,
      baseURL,
      // The SDK would otherwise pick up OPENAI_ORG_ID / OPENAI_PROJECT_ID meant for api.openai.com.
      organization: null,
      project: null,
      maxRetries: 0,
      ...definedFields({ fetch: options.fetch, defaultHeaders: headers }),
    });
  });

  async complete(request: Request, options: CallOptions = {}): Promise<Response> {
    const startedAt = Date.now();
    const body = await buildOpenAICompatibleRequest(request, this.name);
    const client = await this.#sdk.get();
    const deadline = startRequestDeadline(callTimeouts(this.#options, options).requestMs, options.signal);
    try {
      const { data, response } = await client.chat.completions
        .create({ ...body, stream: false }, { signal: deadline.signal })
        .withResponse();
      return mapOpenAICompatibleResponse(data, {
        provider: this.name,
        warnings: [],
        latencyMs: Date.now() - startedAt,
        rateLimit: rateLimitFromHeaders(response.headers),
      });
    } catch (error) {
      throw mapOpenAICompatibleError(error, this.#context(options, deadline, false));
    } finally {
      deadline.dispose();
    }
  }

  async *stream(request: Request, options: CallOptions = {}): AsyncGenerator<StreamEvent> {
    const startedAt = Date.now();
    const body = await buildOpenAICompatibleRequest(request, this.name);
    const client = await this.#sdk.get();
    const limits = callTimeouts(this.#options, options);
    const deadline = startRequestDeadline(limits.connectMs, options.signal);
    let started = false;
    try {
      const chunks = await client.chat.completions.create(
        { ...body, stream: true, stream_options: { include_usage: true } },
        { signal: deadline.signal },
      );
      deadline.touch(limits.streamReadMs);
      const context = { provider: this.name, model: request.model, warnings: [], startedAt };
      for await (const event of mapOpenAICompatibleStream(chunks, context)) {
        started = true;
        // The consumer's time between pulls is not the server's silence.
        deadline.pause();
        yield event;
        deadline.touch();
      }
    } catch (error) {
      throw mapOpenAICompatibleError(error, this.#context(options, deadline, started));
    } finally {
      deadline.dispose();
    }
  }

  #context(options: CallOptions, deadline: RequestDeadline, streamStarted: boolean) {
    return { provider: this.name, ...deadlineErrorContext(deadline, options.signal), streamStarted };
  }
}
