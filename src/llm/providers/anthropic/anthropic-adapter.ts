import type { Anthropic } from '@anthropic-ai/sdk';
import { definedFields } from '../../../shared/defined-fields.js';
import { RequestTimeoutError } from '../../errors/request-timeout-error.js';
import type { ProviderAdapter } from '../../provider-adapter.js';
import { callTimeouts } from '../../timeout-config.js';
import type {
  CallOptions,
  Request,
  Response,
  StreamEvent,
  TimeoutConfig,
  ToolChoiceMode,
} from '../../types.js';
import { LazySdk } from '../shared/lazy-sdk.js';
import { missingApiKeyError } from '../shared/missing-api-key-error.js';
import { startRequestDeadline } from '../shared/request-deadline.js';
import { buildAnthropicRequest } from './build-anthropic-request.js';
import { mapAnthropicError } from './map-anthropic-error.js';
import { mapAnthropicResponse } from './map-anthropic-response.js';
import { mapAnthropicStream } from './map-anthropic-stream.js';

export interface AnthropicAdapterOptions {
  /** Falls back to ANTHROPIC_API_KEY at the first call. */
  apiKey?: string;
  /** Without `/v1`; falls back to ANTHROPIC_BASE_URL, then the SDK default. */
  baseURL?: string;
  fetch?: typeof fetch;
  /** SDK request timeout in ms (the client's own per-call timeout is usually what you want). */
  timeout?: number;
  /** Connect / request / stream-read limits (see TimeoutConfig); the client's and the call's override these. */
  timeouts?: Partial<TimeoutConfig>;
  defaultHeaders?: Record<string, string>;
  /** Read at the first call, not at construction. */
  env?: Record<string, string | undefined>;
}

/**
 * The Anthropic Messages API through the official SDK (imported on first use). Retries are the client's job,
 * so the SDK's are off.
 */
export class AnthropicAdapter implements ProviderAdapter {
  readonly name = 'anthropic';
  private readonly sdk = new LazySdk(() => this.createClient());

  constructor(private readonly options: AnthropicAdapterOptions = {}) {}

  supportsModel(model: string): boolean {
    return model.startsWith('claude-');
  }

  supportsToolChoice(_mode: ToolChoiceMode): boolean {
    return true;
  }

  async complete(request: Request, options: CallOptions = {}): Promise<Response> {
    const { params, headers } = buildAnthropicRequest(request);
    const client = await this.sdk.get();
    const started = Date.now();
    const deadline = startRequestDeadline(callTimeouts(this.options, options).requestMs, options.signal);
    try {
      const message = await client.messages.create(params, {
        headers,
        // An explicit timeout stops the SDK refusing large max_tokens without streaming; ours bounds the call.
        timeout: this.options.timeout ?? 600_000,
        signal: deadline.signal,
      });
      return mapAnthropicResponse(message, Date.now() - started);
    } catch (error) {
      if (deadline.timedOut) {
        throw new RequestTimeoutError(`anthropic: no response within ${deadline.timeoutMs} ms`, {
          provider: 'anthropic',
          cause: error,
        });
      }
      throw mapAnthropicError(error, options.signal);
    } finally {
      deadline.dispose();
    }
  }

  stream(request: Request, options: CallOptions = {}): AsyncIterable<StreamEvent> {
    const { params, headers } = buildAnthropicRequest(request);
    const limits = callTimeouts(this.options, options);
    // Armed when the stream is first read, not when it is created.
    const deadline = startRequestDeadline(undefined, options.signal);
    return mapAnthropicStream(
      async () => {
        deadline.touch(limits.connectMs);
        const client = await this.sdk.get();
        const events = await client.messages.create(
          { ...params, stream: true },
          { headers, signal: deadline.signal },
        );
        // The server answered: from now on each wait is for the next event.
        deadline.touch(limits.streamReadMs);
        return events;
      },
      options.signal,
      deadline,
    );
  }

  async close(): Promise<void> {
    this.sdk.reset();
  }

  private async createClient(): Promise<Anthropic> {
    const env = this.options.env ?? process.env;
    const apiKey = this.options.apiKey ?? env['ANTHROPIC_API_KEY'];
    if (!apiKey) {
      throw missingApiKeyError('Anthropic', 'anthropic', ['ANTHROPIC_API_KEY']);
    }
    const baseURL = this.options.baseURL ?? env['ANTHROPIC_BASE_URL'];
    const { Anthropic: AnthropicSDK } = await import('@anthropic-ai/sdk');
    return new AnthropicSDK({
      apiKey,
      maxRetries: 0,
      ...(baseURL ? { baseURL } : {}),
      ...definedFields({
        fetch: this.options.fetch,
        timeout: this.options.timeout,
        defaultHeaders: this.options.defaultHeaders,
      }),
    });
  }
}
