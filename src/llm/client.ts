import { definedFields } from '../shared/defined-fields.js';
import { getModelInfo } from './catalog.js';
import { detectProvider as detectProviderName } from './detect-provider.js';
import { DirectStream, type DirectStreamHooks } from './direct-stream.js';
import { adaptersFromEnv, type EnvAdapterOptions } from './env-adapters.js';
import { AbortError } from './errors/abort-error.js';
import { ConfigurationError } from './errors/configuration-error.js';
import { LLMError } from './errors/llm-error.js';
import { RequestTimeoutError } from './errors/request-timeout-error.js';
import { type GenerateOptions, generate } from './generate.js';
import { type GenerateObjectOptions, generateObject, streamObject } from './generate-object.js';
import { linkSignals } from './link-signals.js';
import { llmEnvStatus, noProviderMessage } from './llm-env-status.js';
import type { CompleteNext, Middleware, StreamNext } from './middleware/middleware.js';
import type { ProviderAdapter } from './provider-adapter.js';
import {
  createRetryPolicy,
  nextRetryDelay,
  type OnRetry,
  type RetryPolicy,
  sleep,
  withRetry,
} from './retry.js';
import { StreamAccumulator } from './stream-accumulator.js';
import { streamGenerate, streamGenerateWithTools } from './stream-generate.js';
import { StreamResult } from './stream-result.js';
import { checkToolDefinitions } from './tools/check-tool-definitions.js';
import type { CallOptions, GenerateResult, Request, Response, StreamEvent, TimeoutConfig } from './types.js';

export interface LLMClientOptions {
  adapters?: ProviderAdapter[];
  middleware?: Middleware[];
  retryPolicy?: Partial<RetryPolicy>;
  onRetry?: OnRetry;
  /** Used when a model string matches no adapter; defaults to the first adapter. */
  defaultProvider?: string;
  /** Adapter limits for every call (connect / request / stream read; see TimeoutConfig); calls may override. */
  timeouts?: Partial<TimeoutConfig>;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Per call (all retries of one call included); exceeding it throws RequestTimeoutError. */
  timeoutMs?: number;
  /** Adapter limits for this call, over the client's (see TimeoutConfig). */
  timeouts?: Partial<TimeoutConfig>;
}

/**
 * Provider-agnostic LLM client: routes each request to an adapter by `provider` or model name, runs the
 * middleware, retries retryable failures with backoff, and offers the high-level generate helpers.
 *
 * @example
 * const client = LLMClient.fromEnv();
 * const response = await client.complete({ model: 'claude-sonnet-4-6', messages: [Message.user('Hi')] });
 */
export class LLMClient {
  readonly adapters: readonly ProviderAdapter[];
  readonly middleware: readonly Middleware[];
  readonly retryPolicy: RetryPolicy;
  readonly defaultProvider?: string;
  readonly timeouts?: Partial<TimeoutConfig>;
  private readonly onRetry?: OnRetry;
  private closed = false;

  constructor(options: LLMClientOptions = {}) {
    this.adapters = [...(options.adapters ?? [])];
    this.middleware = [...(options.middleware ?? [])];
    this.retryPolicy = createRetryPolicy(options.retryPolicy);
    const fallback = options.defaultProvider ?? this.adapters[0]?.name;
    if (fallback !== undefined) this.defaultProvider = fallback;
    if (options.onRetry) this.onRetry = options.onRetry;
    if (options.timeouts) this.timeouts = { ...options.timeouts };
  }

  /**
   * The recommended factory: the built-in providers the environment and `.env` configure (ANTHROPIC_API_KEY,
   * OPENAI_API_KEY, GEMINI_API_KEY / GOOGLE_API_KEY, OPENAI_COMPATIBLE_BASE_URL, and their *_BASE_URL), and only
   * those; the first becomes the default provider. `extraAdapters` go first. With no provider at all it throws
   * ConfigurationError naming the variables (see llmEnvStatus).
   */
  static fromEnv(
    options: Omit<LLMClientOptions, 'adapters'> &
      EnvAdapterOptions & { extraAdapters?: ProviderAdapter[] } = {},
  ): LLMClient {
    const { env, dotenv, extraAdapters, ...rest } = options;
    const envOptions = { ...definedFields({ env, dotenv }) };
    const statuses = llmEnvStatus(envOptions);
    const configured = new Set(statuses.filter((s) => s.configured).map((s) => s.provider as string));
    const adapters = [
      ...(extraAdapters ?? []),
      ...adaptersFromEnv(envOptions).filter((adapter) => configured.has(adapter.name)),
    ];
    if (adapters.length === 0) throw new ConfigurationError(noProviderMessage(statuses));
    return new LLMClient({ ...rest, adapters });
  }

  /** The adapter registered under `name`, if any. */
  adapter(name: string): ProviderAdapter | undefined {
    return this.adapters.find((adapter) => adapter.name === name);
  }

  /** The adapter that will serve `model` (`detect_provider`). Throws ConfigurationError when none does. */
  detectProvider(model: string, provider?: string): ProviderAdapter {
    if (provider !== undefined) {
      const named = this.adapter(provider);
      if (named) return named;
      throw new ConfigurationError(
        `No LLM adapter named "${provider}" is registered (registered: ${this.adapterNames()}).`,
      );
    }
    const claimed = this.adapters.find((adapter) => adapter.supportsModel?.(model) === true);
    if (claimed) return claimed;
    const detected = detectProviderName(model);
    if (detected !== undefined) {
      const adapter = this.adapter(detected);
      if (adapter) return adapter;
      throw new ConfigurationError(
        `Model "${model}" belongs to provider "${detected}", which is not configured (registered: ${this.adapterNames()}).`,
      );
    }
    const fallback = this.defaultProvider === undefined ? undefined : this.adapter(this.defaultProvider);
    if (fallback) return fallback;
    throw new ConfigurationError(
      `No LLM adapter can serve model "${model}" and no default provider is configured (registered: ${this.adapterNames()}).`,
    );
  }

  /** One non-streaming call through middleware and the retry policy. */
  async complete(request: Request, options: RequestOptions = {}): Promise<Response> {
    this.ensureOpen();
    let current = this.canonicalModel(request);
    for (const mw of this.middleware) if (mw.beforeRequest) current = await mw.beforeRequest(current);
    const link = linkSignals(options.signal, options.timeoutMs, `${current.model} request`);
    try {
      const started = Date.now();
      // Routing happens inside the middleware chain, so a replaying middleware needs no adapter at all.
      const core: CompleteNext = (req) => {
        const adapter = this.detectProvider(req.model, req.provider);
        return withRetry(
          async () => {
            try {
              return await adapter.complete(req, this.callOptions(link, options));
            } catch (error) {
              throw this.abortReason(error, link, adapter.name);
            }
          },
          {
            policy: this.retryPolicy,
            signal: link.signal,
            // An abort during the backoff rejects with the signal's raw reason; callers expect our AbortError.
            wait: (ms, signal) =>
              sleep(ms, signal).catch((error: unknown) => {
                throw this.abortReason(error, link, adapter.name);
              }),
            ...definedFields({ onRetry: this.onRetry }),
          },
        );
      };
      let next = core;
      for (const mw of [...this.middleware].reverse()) {
        if (!mw.aroundComplete) continue;
        const inner = next;
        next = (req) => mw.aroundComplete!(req, inner);
      }
      let response = this.withWarnings(await next(current));
      if (response.latencyMs === undefined) response = { ...response, latencyMs: Date.now() - started };
      for (const mw of [...this.middleware].reverse()) {
        if (mw.afterResponse) response = await mw.afterResponse(response, current);
      }
      return response;
    } finally {
      link.dispose();
    }
  }

  /**
   * A streaming call. Retries only while nothing has been yielded yet. On failure an `error` event is yielded,
   * then the iterator throws the same typed error. The result is the event stream, with a
   * StreamResult view (`response()`, `textStream`, `partialResponse`) on top.
   */
  stream(request: Request, options: RequestOptions = {}): StreamResult {
    if (this.middleware.some((mw) => mw.aroundStream || mw.wrapStream)) {
      return new StreamResult(this.streamThroughMiddleware(request, options));
    }
    const accumulator = new StreamAccumulator();
    return new StreamResult(this.directStream(request, options, accumulator), accumulator);
  }

  /** The stream path with no stream middleware; it folds every event into `accumulator` as it maps it. */
  private directStream(
    request: Request,
    options: RequestOptions,
    accumulator: StreamAccumulator,
  ): AsyncIterator<StreamEvent> {
    return new DirectStream(new LLMClient.DirectHooks(this, request, options, accumulator));
  }

  /**
   * The direct stream's steps for one call, as methods of one object rather than a closure each (an agent
   * makes a streamed call per tool round). `map` is handed to the adapter's stream on its own, so it is bound.
   */
  private static readonly DirectHooks = class implements DirectStreamHooks {
    current: Request;
    adapter: ProviderAdapter | undefined;
    link: ReturnType<typeof linkSignals> | undefined;

    constructor(
      readonly client: LLMClient,
      readonly request: Request,
      readonly options: RequestOptions,
      readonly accumulator: StreamAccumulator,
    ) {
      this.current = request;
    }

    begin(): Promise<void> | void {
      const client = this.client;
      client.ensureOpen();
      this.current = client.canonicalModel(this.request);
      // Synchronous unless a middleware's beforeRequest has to be awaited (DirectStream saves a promise).
      if (!client.middleware.some(hasBeforeRequest)) return this.route();
      return (async () => {
        for (const mw of client.middleware) {
          if (mw.beforeRequest) this.current = await mw.beforeRequest(this.current);
        }
        this.route();
      })();
    }

    route(): void {
      const current = this.current;
      this.link = linkSignals(this.options.signal, this.options.timeoutMs, `${current.model} stream`);
      this.adapter = this.client.detectProvider(current.model, current.provider);
    }

    open(): AsyncIterator<StreamEvent> {
      const callOptions = this.client.callOptions(this.link!, this.options);
      return this.adapter!.stream(this.current, callOptions)[Symbol.asyncIterator]();
    }

    readonly map = (event: StreamEvent): StreamEvent => {
      let mapped = event;
      if (event.type === 'finish') {
        const response = this.client.withWarnings(event.response);
        if (response !== event.response) mapped = { ...event, response };
      }
      this.accumulator.add(mapped);
      return mapped;
    };

    onFailure(caught: unknown, attempt: number, yielded: boolean): Promise<void> {
      return this.client.beforeStreamRetry(caught, attempt, yielded, this.link!, this.provider());
    }

    finalError(caught: unknown): unknown {
      return this.client.abortReason(caught, this.link!, this.provider());
    }

    dispose(): void {
      this.link?.dispose();
    }

    provider(): string {
      return this.adapter?.name ?? this.current.provider ?? '';
    }
  };

  /** The stream path when middleware wraps streams (record, replay, custom `wrapStream`). */
  private async *streamThroughMiddleware(
    request: Request,
    options: RequestOptions,
  ): AsyncGenerator<StreamEvent, void, undefined> {
    this.ensureOpen();
    let current = this.canonicalModel(request);
    for (const mw of this.middleware) if (mw.beforeRequest) current = await mw.beforeRequest(current);
    const link = linkSignals(options.signal, options.timeoutMs, `${current.model} stream`);
    const core: StreamNext = (req) => this.retryingStream(req, link, options);
    let next = core;
    for (const mw of [...this.middleware].reverse()) {
      if (!mw.aroundStream) continue;
      const inner = next;
      next = (req) => mw.aroundStream!(req, inner);
    }
    let events = next(current);
    for (const mw of [...this.middleware].reverse())
      if (mw.wrapStream) events = mw.wrapStream(events, current);
    try {
      for await (const event of events) {
        yield event.type === 'finish' ? { ...event, response: this.withWarnings(event.response) } : event;
      }
    } catch (error) {
      if (LLMError.isLLMError(error)) yield { type: 'error', error };
      throw error;
    } finally {
      link.dispose();
    }
  }

  /** generate with the concurrent tool loop; see generate.ts. */
  generate(options: GenerateOptions): Promise<GenerateResult> {
    return generate(this, options);
  }

  /** A single streamed round, no tool execution. */
  streamGenerate(options: GenerateOptions): StreamResult {
    return new StreamResult(streamGenerate(this, options));
  }

  /** Streamed rounds with tool execution in between, separated by `step_finish` events. */
  streamGenerateWithTools(options: GenerateOptions): StreamResult {
    return new StreamResult(streamGenerateWithTools(this, options));
  }

  /** A JSON object matching a zod schema or a JSON Schema; throws NoObjectGeneratedError otherwise. */
  generateObject<T = unknown>(options: GenerateObjectOptions<T>): Promise<GenerateResult<T>> {
    return generateObject(this, options);
  }

  /** Streams the call and yields the parsed object once, at the end. */
  streamObject<T = unknown>(options: GenerateObjectOptions<T>): AsyncIterable<T> {
    return streamObject(this, options);
  }

  /** Closes every adapter. Idempotent; afterwards every call throws ConfigurationError. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.adapters.map((adapter) => adapter.close?.()));
  }

  /** What an adapter gets: the linked signal, and the client's timeouts under the call's. */
  private callOptions(link: ReturnType<typeof linkSignals>, options: RequestOptions): CallOptions {
    const timeouts =
      this.timeouts || options.timeouts ? { ...this.timeouts, ...options.timeouts } : undefined;
    return { signal: link.signal, ...definedFields({ timeouts }) };
  }

  private async *retryingStream(
    request: Request,
    link: ReturnType<typeof linkSignals>,
    options: RequestOptions,
  ): AsyncGenerator<StreamEvent, void, undefined> {
    const adapter = this.detectProvider(request.model, request.provider);
    for (let attempt = 0; ; attempt++) {
      let yielded = false;
      try {
        for await (const event of adapter.stream(request, this.callOptions(link, options))) {
          yielded = true;
          yield event;
        }
        return;
      } catch (caught) {
        await this.beforeStreamRetry(caught, attempt, yielded, link, adapter.name);
      }
    }
  }

  /** Waits before retrying a failed stream, or throws the (typed) error when it must not be retried. */
  private async beforeStreamRetry(
    caught: unknown,
    attempt: number,
    yielded: boolean,
    link: ReturnType<typeof linkSignals>,
    provider: string,
  ): Promise<void> {
    const error = this.abortReason(caught, link, provider);
    // Once the consumer has seen part of a stream, a retry would duplicate it.
    const delay = yielded ? undefined : nextRetryDelay(this.retryPolicy, error, attempt);
    if (delay === undefined || link.signal?.aborted) throw error;
    this.onRetry?.(attempt + 1, error as LLMError, delay);
    try {
      await sleep(delay, link.signal);
    } catch (interrupted) {
      throw this.abortReason(interrupted, link, provider);
    }
  }

  /**
   * Our own timeout surfaces as RequestTimeoutError whatever the SDK reported for the abort; the caller's abort
   * as AbortError when what was thrown is the signal's raw reason (retry backoff, adapters that rethrow it).
   */
  private abortReason(error: unknown, link: ReturnType<typeof linkSignals>, provider: string): unknown {
    if (
      link.timedOut() &&
      (error instanceof AbortError || !LLMError.isLLMError(error) || error.code === 'llm.timeout')
    ) {
      return error instanceof RequestTimeoutError
        ? error
        : new RequestTimeoutError(`${provider}: request timed out`, { provider, cause: error });
    }
    if (link.signal?.aborted && !LLMError.isLLMError(error)) {
      return new AbortError(`${provider}: request aborted`, { provider, cause: error });
    }
    return error;
  }

  private canonicalModel(request: Request): Request {
    // A tool name some provider refuses is a programming error (docs/decisions/0032-llm-tool-names-and-retryable-errors.md); no provider should see it.
    checkToolDefinitions(request.tools ?? []);
    const info = getModelInfo(request.model);
    if (!info || info.id === request.model) return request;
    if (request.provider !== undefined && request.provider !== info.provider) return request;
    return { ...request, model: info.id };
  }

  private withWarnings(response: Response): Response {
    const deprecated = getModelInfo(response.model)?.deprecated;
    if (!deprecated || response.warnings.includes(deprecated)) return response;
    return { ...response, warnings: [...response.warnings, deprecated] };
  }

  private ensureOpen(): void {
    if (this.closed) throw new ConfigurationError('This LLMClient is closed.');
  }

  private adapterNames(): string {
    return this.adapters.length === 0 ? 'none' : this.adapters.map((adapter) => adapter.name).join(', ');
  }
}

const hasBeforeRequest = (mw: Middleware): boolean => Boolean(mw.beforeRequest);
