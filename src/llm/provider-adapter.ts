import type { CallOptions, Request, Response, StreamEvent, ToolChoiceMode } from './types.js';

/**
 * What the client needs from a provider. Adapters convert the unified Request to the provider's wire format
 * through its official SDK, and map the result, stream and errors back. They never retry (the client does) and
 * throw only LLMError subclasses for provider failures (see errors/error-from-exception.ts).
 *
 * Streams: yield `stream_start` first and `finish` (with the assembled Response) last; throw a typed error on
 * failure. Abort `options.signal` must cancel the HTTP request or the stream.
 */
export interface ProviderAdapter {
  /** `anthropic`, `openai`, `openai-compatible`, `gemini`, or any name a custom adapter chooses. */
  readonly name: string;
  complete(request: Request, options?: CallOptions): Promise<Response>;
  stream(request: Request, options?: CallOptions): AsyncIterable<StreamEvent>;
  /** Claims a model string for routing; without it the client falls back to detectProvider's prefixes. */
  supportsModel?(model: string): boolean;
  supportsToolChoice?(mode: ToolChoiceMode): boolean;
  close?(): Promise<void>;
}
