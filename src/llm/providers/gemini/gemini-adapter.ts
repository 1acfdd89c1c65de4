import type {
  FunctionCallingConfigMode,
  GenerateContentConfig,
  GenerateContentParameters,
  GoogleGenAI,
  ThinkingConfig,
  ThinkingLevel,
} from '@google/genai';
import { definedFields } from '../../../shared/defined-fields.js';
import { InvalidRequestError } from '../../errors/invalid-request-error.js';
import type { ProviderAdapter } from '../../provider-adapter.js';
import { callTimeouts } from '../../timeout-config.js';
import type {
  CallOptions,
  ReasoningEffort,
  Request,
  Response,
  StreamEvent,
  TimeoutConfig,
  ToolChoice,
  ToolChoiceMode,
} from '../../types.js';
import { LazySdk } from '../shared/lazy-sdk.js';
import { missingApiKeyError } from '../shared/missing-api-key-error.js';
import {
  deadlineErrorContext,
  type RequestDeadline,
  startRequestDeadline,
} from '../shared/request-deadline.js';
import { convertToGeminiMessages } from './convert-to-gemini-messages.js';
import { mapGeminiError } from './map-gemini-error.js';
import { mapGeminiResponse } from './map-gemini-response.js';
import { mapGeminiStream } from './map-gemini-stream.js';

export interface GeminiAdapterOptions {
  /** Defaults to `GEMINI_API_KEY`, then `GOOGLE_API_KEY`; a missing key fails at the first call. */
  apiKey?: string;
  /** Without the API version (the SDK adds `/v1beta/...`). Defaults to `GEMINI_BASE_URL`, then `GOOGLE_GEMINI_BASE_URL`. */
  baseURL?: string;
  /** Defaults to the SDK's (`v1beta` in @google/genai 2.x). */
  apiVersion?: string;
  fetch?: typeof globalThis.fetch;
  /** A call fails with RequestTimeoutError when no response (or, streaming, no next chunk) comes within this. */
  timeoutMs?: number;
  /** Connect / request / stream-read limits (see TimeoutConfig); the client's and the call's override these. */
  timeouts?: Partial<TimeoutConfig>;
  headers?: Record<string, string>;
  /** Where the `GEMINI_*` / `GOOGLE_*` fallbacks are read; defaults to process.env. */
  env?: Record<string, string | undefined>;
}

const PROVIDER = 'gemini';

/** Thinking budgets for Gemini 2.x; Gemini 3 takes a level instead. */
const THINKING_BUDGET: Record<ReasoningEffort, number> = { low: 1024, medium: 8192, high: 24_576 };

function thinkingConfig(model: string, effort: ReasoningEffort): ThinkingConfig {
  if (/^gemini-[3-9]/.test(model)) {
    return { thinkingLevel: effort.toUpperCase() as ThinkingLevel, includeThoughts: true };
  }
  return { thinkingBudget: THINKING_BUDGET[effort], includeThoughts: true };
}

function functionCallingConfig(choice: ToolChoice): NonNullable<GenerateContentConfig['toolConfig']> {
  const mode = (value: string) => value as FunctionCallingConfigMode;
  switch (choice.mode) {
    case 'auto':
      return { functionCallingConfig: { mode: mode('AUTO') } };
    case 'none':
      return { functionCallingConfig: { mode: mode('NONE') } };
    case 'required':
      return { functionCallingConfig: { mode: mode('ANY') } };
    case 'named':
      if (!choice.toolName)
        throw new InvalidRequestError('gemini: a named tool choice needs toolName', { provider: PROVIDER });
      return { functionCallingConfig: { mode: mode('ANY'), allowedFunctionNames: [choice.toolName] } };
  }
}

/** The generateContent parameters for a unified request (without the abort signal). */
export async function buildGeminiRequest(request: Request): Promise<GenerateContentParameters> {
  const { systemInstruction, contents } = await convertToGeminiMessages(
    request.messages,
    request.systemPrompt,
  );
  const config: GenerateContentConfig = {};
  if (systemInstruction) config.systemInstruction = systemInstruction;
  if (request.tools && request.tools.length > 0) {
    config.tools = [
      {
        functionDeclarations: request.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          parametersJsonSchema: tool.parameters,
        })),
      },
    ];
    if (request.toolChoice) config.toolConfig = functionCallingConfig(request.toolChoice);
  }
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.topP !== undefined) config.topP = request.topP;
  if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens;
  if (request.stopSequences && request.stopSequences.length > 0) config.stopSequences = request.stopSequences;
  if (request.reasoningEffort !== undefined)
    config.thinkingConfig = thinkingConfig(request.model, request.reasoningEffort);
  const format = request.responseFormat;
  if (format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    config.responseJsonSchema = format.jsonSchema;
  } else if (format?.type === 'json') {
    config.responseMimeType = 'application/json';
  }
  Object.assign(config, request.providerOptions?.[PROVIDER] ?? {});
  return { model: request.model, contents, config };
}

/**
 * The Gemini adapter, over the official `@google/genai` SDK (`models.generateContent` and
 * `generateContentStream`, i.e. `POST /v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`). The SDK is imported and its client built at the first call; it never
 * retries (the LLM client does).
 *
 * @example
 * const adapter = new GeminiAdapter({ apiKey: process.env.GEMINI_API_KEY });
 * const response = await adapter.complete({ model: 'gemini-2.5-pro', messages: [Message.user('Hello')] });
 */
export class GeminiAdapter implements ProviderAdapter {
  readonly name = PROVIDER;
  readonly #options: GeminiAdapterOptions;

  constructor(options: GeminiAdapterOptions = {}) {
    this.#options = options;
  }

  supportsModel(model: string): boolean {
    return model.startsWith('gemini-');
  }

  supportsToolChoice(_mode: ToolChoiceMode): boolean {
    return true;
  }

  readonly #sdk = new LazySdk(async (): Promise<GoogleGenAI> => {
    const options = this.#options;
    const env = options.env ?? process.env;
    const apiKey = options.apiKey ?? (env.GEMINI_API_KEY || env.GOOGLE_API_KEY);
    if (!apiKey) {
      throw missingApiKeyError('Gemini', PROVIDER, ['GEMINI_API_KEY', 'GOOGLE_API_KEY']);
    }
    const baseUrl = options.baseURL ?? (env.GEMINI_BASE_URL || env.GOOGLE_GEMINI_BASE_URL);
    const { GoogleGenAI } = await import('@google/genai');
    return new GoogleGenAI({
      apiKey,
      ...(options.apiVersion ? { apiVersion: options.apiVersion } : {}),
      httpOptions: {
        ...(baseUrl ? { baseUrl } : {}),
        ...definedFields({ headers: options.headers }),
      },
    });
  });

  /** Per call, so the headers of a failed response (Retry-After) reach the error mapping. */
  #recordingFetch(onHeaders?: () => void): {
    fetch: typeof globalThis.fetch;
    headers: () => Headers | undefined;
  } {
    const inner = this.#options.fetch ?? globalThis.fetch;
    let headers: Headers | undefined;
    return {
      fetch: async (input, init) => {
        const response = await inner(input, init);
        headers = response.headers;
        onHeaders?.();
        return response;
      },
      headers: () => headers,
    };
  }

  async complete(request: Request, options: CallOptions = {}): Promise<Response> {
    const startedAt = Date.now();
    const params = await buildGeminiRequest(request);
    const client = await this.#sdk.get();
    const deadline = startRequestDeadline(callTimeouts(this.#options, options).requestMs, options.signal);
    const recorder = this.#recordingFetch();
    try {
      const data = await client.models.generateContent({
        ...params,
        config: { ...params.config, abortSignal: deadline.signal, httpOptions: { fetch: recorder.fetch } },
      });
      return mapGeminiResponse(data, {
        model: request.model,
        warnings: [],
        latencyMs: Date.now() - startedAt,
      });
    } catch (error) {
      throw mapGeminiError(error, this.#context(options, deadline, recorder.headers()));
    } finally {
      deadline.dispose();
    }
  }

  async *stream(request: Request, options: CallOptions = {}): AsyncGenerator<StreamEvent> {
    const startedAt = Date.now();
    const params = await buildGeminiRequest(request);
    const client = await this.#sdk.get();
    const limits = callTimeouts(this.#options, options);
    const deadline = startRequestDeadline(limits.connectMs, options.signal);
    // Once the server has answered, each wait is for the next event.
    const recorder = this.#recordingFetch(() => deadline.touch(limits.streamReadMs));
    let started = false;
    try {
      const chunks = await client.models.generateContentStream({
        ...params,
        config: { ...params.config, abortSignal: deadline.signal, httpOptions: { fetch: recorder.fetch } },
      });
      for await (const event of mapGeminiStream(chunks, { model: request.model, warnings: [], startedAt })) {
        started = true;
        // The consumer's time between pulls is not the server's silence.
        deadline.pause();
        yield event;
        deadline.touch();
      }
    } catch (error) {
      throw mapGeminiError(error, {
        ...this.#context(options, deadline, recorder.headers()),
        streamStarted: started,
      });
    } finally {
      deadline.dispose();
    }
  }

  #context(options: CallOptions, deadline: RequestDeadline, headers: Headers | undefined) {
    return { ...deadlineErrorContext(deadline, options.signal), ...definedFields({ headers }) };
  }
}
