import type { OpenAI } from 'openai';
import type { ResponseCreateParamsBase, Tool } from 'openai/resources/responses/responses';
import { definedFields } from '../../../shared/defined-fields.js';
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
import { LazySdk } from '../shared/lazy-sdk.js';
import { missingApiKeyError } from '../shared/missing-api-key-error.js';
import { deadlineErrorContext, startRequestDeadline } from '../shared/request-deadline.js';
import { convertToOpenAIMessages } from './convert-to-openai-messages.js';
import { mapOpenAIError } from './map-openai-error.js';
import { mapOpenAIResponse, rateLimitFromHeaders } from './map-openai-response.js';
import { mapOpenAIStream } from './map-openai-stream.js';

export interface OpenAIAdapterOptions {
  /** Defaults to `OPENAI_API_KEY`; a missing key fails at the first call, not at construction. */
  apiKey?: string;
  /** Includes `/v1`. Defaults to `OPENAI_BASE_URL`, then the SDK's default. */
  baseURL?: string;
  /** Defaults to `OPENAI_ORG_ID`. */
  organization?: string;
  /** Defaults to `OPENAI_PROJECT_ID`. */
  project?: string;
  fetch?: typeof globalThis.fetch;
  /** A call fails with RequestTimeoutError when no response (or, streaming, no next event) comes within this. */
  timeoutMs?: number;
  /** Connect / request / stream-read limits (see TimeoutConfig); the client's and the call's override these. */
  timeouts?: Partial<TimeoutConfig>;
  defaultHeaders?: Record<string, string>;
  /** Where the `OPENAI_*` fallbacks are read; defaults to process.env. */
  env?: Record<string, string | undefined>;
}

const PROVIDER = 'openai';
const MODEL_PREFIXES = ['gpt-', 'o1', 'o3', 'o4-', 'codex-', 'chatgpt-', 'computer-use-'];

type Body = ResponseCreateParamsBase;

function toolChoice(choice: ToolChoice): NonNullable<Body['tool_choice']> {
  if (choice.mode !== 'named') return choice.mode;
  if (!choice.toolName)
    throw new InvalidRequestError('openai: a named tool choice needs toolName', { provider: PROVIDER });
  return { type: 'function', name: choice.toolName };
}

/** The Responses API request body for a unified request (without `stream`), and what we could not honour. */
export async function buildOpenAIRequest(request: Request): Promise<{ body: Body; warnings: string[] }> {
  const warnings: string[] = [];
  const { instructions, input } = await convertToOpenAIMessages(request.messages, request.systemPrompt);
  const body: Body = { model: request.model, input, store: false };
  if (instructions !== undefined) body.instructions = instructions;
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map(
      (tool): Tool => ({
        type: 'function',
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        // The API makes functions strict unless told otherwise; strict needs every property required.
        strict: tool.strict ?? false,
      }),
    );
    if (request.toolChoice) body.tool_choice = toolChoice(request.toolChoice);
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
  if (request.reasoningEffort !== undefined) {
    body.reasoning = { effort: request.reasoningEffort, summary: 'auto' };
    // With store off, the encrypted reasoning is what lets the next turn resume the model's reasoning.
    body.include = ['reasoning.encrypted_content'];
  }
  const format = request.responseFormat;
  if (format?.type === 'json_schema') {
    body.text = {
      format: {
        type: 'json_schema',
        name: format.name ?? 'response',
        schema: format.jsonSchema,
        strict: format.strict ?? true,
      },
    };
  } else if (format?.type === 'json') {
    body.text = { format: { type: 'json_object' } };
  }
  if (request.stopSequences && request.stopSequences.length > 0) {
    warnings.push('openai: the Responses API has no stop sequences; stopSequences was ignored');
  }
  Object.assign(body, request.providerOptions?.[PROVIDER] ?? {});
  return { body, warnings };
}

/**
 * The OpenAI adapter, over the official `openai` SDK's Responses API (`POST /v1/responses`). The SDK is
 * imported and its client built at the first call; the SDK never retries (the LLM client does).
 *
 * @example
 * const adapter = new OpenAIAdapter({ apiKey: process.env.OPENAI_API_KEY });
 * const response = await adapter.complete({ model: 'gpt-5.2', messages: [Message.user('Hello')] });
 */
export class OpenAIAdapter implements ProviderAdapter {
  readonly name: string = PROVIDER;
  readonly #options: OpenAIAdapterOptions;

  constructor(options: OpenAIAdapterOptions = {}) {
    this.#options = options;
  }

  supportsModel(model: string): boolean {
    return MODEL_PREFIXES.some((prefix) => model.startsWith(prefix));
  }

  supportsToolChoice(_mode: ToolChoiceMode): boolean {
    return true;
  }

  readonly #sdk = new LazySdk(async (): Promise<OpenAI> => {
    const options = this.#options;
    const env = options.env ?? process.env;
    const apiKey = options.apiKey ?? env.OPENAI_API_KEY;
    if (!apiKey) {
      throw missingApiKeyError('OpenAI', PROVIDER, ['OPENAI_API_KEY']);
    }
    const { OpenAI } = await import('openai');
    return new OpenAI({
      apiKey,
      baseURL: options.baseURL ?? env.OPENAI_BASE_URL ?? null,
      organization: options.organization ?? env.OPENAI_ORG_ID ?? null,
      project: options.project ?? env.OPENAI_PROJECT_ID ?? null,
      maxRetries: 0,
      ...definedFields({ fetch: options.fetch, defaultHeaders: options.defaultHeaders }),
    });
  });

  async complete(request: Request, options: CallOptions = {}): Promise<Response> {
    const startedAt = Date.now();
    const { body, warnings } = await buildOpenAIRequest(request);
    const client = await this.#sdk.get();
    const limits = callTimeouts(this.#options, options);
    const deadline = startRequestDeadline(limits.requestMs, options.signal);
    try {
      const { data, response } = await client.responses
        .create({ ...body, stream: false }, { signal: deadline.signal })
        .withResponse();
      return mapOpenAIResponse(data, {
        provider: this.name,
        warnings,
        latencyMs: Date.now() - startedAt,
        rateLimit: rateLimitFromHeaders(response.headers),
      });
    } catch (error) {
      throw mapOpenAIError(error, { provider: this.name, ...deadlineErrorContext(deadline, options.signal) });
    } finally {
      deadline.dispose();
    }
  }

  async *stream(request: Request, options: CallOptions = {}): AsyncGenerator<StreamEvent> {
    const startedAt = Date.now();
    const { body, warnings } = await buildOpenAIRequest(request);
    const client = await this.#sdk.get();
    const limits = callTimeouts(this.#options, options);
    const deadline = startRequestDeadline(limits.connectMs, options.signal);
    let started = false;
    try {
      const events = await client.responses.create({ ...body, stream: true }, { signal: deadline.signal });
      deadline.touch(limits.streamReadMs);
      for await (const event of mapOpenAIStream(events, { provider: this.name, warnings, startedAt })) {
        started = true;
        // The consumer's time between pulls is not the server's silence.
        deadline.pause();
        yield event;
        deadline.touch();
      }
    } catch (error) {
      throw mapOpenAIError(error, {
        provider: this.name,
        ...deadlineErrorContext(deadline, options.signal),
        streamStarted: started,
      });
    } finally {
      deadline.dispose();
    }
  }
}
