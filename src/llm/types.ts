/**
 * The unified data model every provider adapter speaks. Everything here is plain JSON-serialisable data
 * (no classes, no functions) so a request, a response or a stream can be written to a cassette and read back.
 * Helpers that build these values live in message.ts, usage.ts and response.ts.
 */
import type { LLMError } from './errors/llm-error.js';

export type Role = 'system' | 'user' | 'assistant' | 'tool' | 'developer';

export interface TextPart {
  kind: 'text';
  text: string;
}

/** At least one of `url` or `data` (base64). A `url` starting with `/`, `./` or `~` is read from disk by the adapter. */
export interface ImagePart {
  kind: 'image';
  url?: string;
  data?: string;
  /** Defaults to image/png when `data` is given without one. */
  mediaType?: string;
  detail?: 'auto' | 'low' | 'high';
}

export interface AudioPart {
  kind: 'audio';
  data: string;
  mediaType: string;
}

export interface DocumentPart {
  kind: 'document';
  data: string;
  mediaType: string;
  name?: string;
}

export interface ToolCallPart {
  kind: 'tool_call';
  toolCallId: string;
  toolName: string;
  /** Parsed arguments; `{}` when the model sent something that is not a JSON object. */
  arguments: Record<string, unknown>;
  /** The arguments exactly as the model produced them. */
  argumentsJson: string;
}

export interface ToolResultPart {
  kind: 'tool_result';
  toolCallId: string;
  /** Providers that address results by function name (Gemini) need it; the tool loop always fills it. */
  toolName?: string;
  content: string;
  isError: boolean;
  /** Images the tool produced (a screenshot, a chart), sent to the model with the text where the provider allows. */
  images?: ImagePart[];
}

export interface ThinkingPart {
  kind: 'thinking';
  text: string;
  /** Opaque provider token that must be sent back unchanged with the thinking text (Anthropic). */
  signature?: string;
}

export interface RedactedThinkingPart {
  kind: 'redacted_thinking';
  /** Opaque encrypted payload, passed back verbatim. */
  data: string;
}

export type ContentPart =
  | TextPart
  | ImagePart
  | AudioPart
  | DocumentPart
  | ToolCallPart
  | ToolResultPart
  | ThinkingPart
  | RedactedThinkingPart;

export type ContentKind = ContentPart['kind'];

export interface Message {
  role: Role;
  content: ContentPart[];
  name?: string;
  /** Set on `tool` messages (mirrors the single tool_result part's id). */
  toolCallId?: string;
}

/** `parameters` is a JSON Schema whose root is `type: "object"`. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict?: boolean;
}

export type ToolChoiceMode = 'auto' | 'none' | 'required' | 'named';

export interface ToolChoice {
  mode: ToolChoiceMode;
  /** Required when `mode` is `named`. */
  toolName?: string;
}

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json' }
  | { type: 'json_schema'; jsonSchema: Record<string, unknown>; name?: string; strict?: boolean };

export type ReasoningEffort = 'low' | 'medium' | 'high';

export interface Request {
  model: string;
  /**
   * The conversation, lent for the call: the caller may append to this same array once the call returns (an
   * agent loop does), so code that keeps a request past its call keeps a copy of it (decision 0041).
   */
  messages: Message[];
  /** Routes straight to this adapter, bypassing model-prefix detection. */
  provider?: string;
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  /** Joined before any system/developer messages. */
  systemPrompt?: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  stopSequences?: string[];
  reasoningEffort?: ReasoningEffort;
  responseFormat?: ResponseFormat;
  metadata?: Record<string, unknown>;
  /**
   * Keyed by provider name, passed through to that provider only, e.g.
   * `{ anthropic: { auto_cache: false, beta_headers: ['x'] } }` (`autoCache`, `betaHeaders` too).
   */
  providerOptions?: Record<string, Record<string, unknown>>;
}

export type FinishReasonValue = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error' | 'other';

export interface FinishReason {
  reason: FinishReasonValue;
  /** The provider's own value (`end_turn`, `MAX_TOKENS`, ...). */
  raw?: string;
}

/**
 * Reasoning and cache counts are `undefined` when the provider did not report them (not zero).
 * `inputTokens` counts every prompt token, cached or not (Anthropic reports cache reads and writes apart from
 * `input_tokens`; its adapter adds them back), so `cacheReadTokens / inputTokens` is the cache hit ratio.
 * `reasoningTokens` are part of `outputTokens`, reported separately.
 */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  reasoningTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  raw?: Record<string, unknown>;
}

export interface RateLimitInfo {
  requestsRemaining?: number;
  requestsLimit?: number;
  tokensRemaining?: number;
  tokensLimit?: number;
  resetAt?: string;
}

export interface Response {
  id: string;
  model: string;
  provider: string;
  message: Message;
  finishReason: FinishReason;
  usage: TokenUsage;
  /** Concatenated text parts of `message`. */
  text: string;
  toolCalls: ToolCallPart[];
  /** Concatenated thinking text, absent when the model did not think aloud. */
  reasoning?: string;
  latencyMs?: number;
  raw?: unknown;
  warnings: string[];
  rateLimit?: RateLimitInfo;
  metadata?: Record<string, unknown>;
}

export type StreamEvent =
  | { type: 'stream_start'; id?: string; model?: string; raw?: unknown }
  | { type: 'text_start'; textId: string }
  | { type: 'text_delta'; textId: string; delta: string }
  | { type: 'text_end'; textId: string; text: string }
  | { type: 'reasoning_start'; reasoningId: string; redacted?: boolean }
  | { type: 'reasoning_delta'; reasoningId: string; delta: string }
  | { type: 'reasoning_end'; reasoningId: string; text: string; signature?: string }
  | { type: 'tool_call_start'; toolCallId: string; toolName: string }
  | { type: 'tool_call_delta'; toolCallId: string; argumentsDelta: string }
  | { type: 'tool_call_end'; toolCall: ToolCallPart }
  | { type: 'provider_event'; raw: unknown }
  /** Between rounds of a tool loop (streamGenerateWithTools). */
  | { type: 'step_finish'; step: number; finishReason: FinishReason; usage: TokenUsage; response: Response }
  /** Last event of a successful stream; `response` is the full assembled message (thinking signatures included). */
  | { type: 'finish'; finishReason: FinishReason; usage: TokenUsage; response: Response }
  /** Emitted by the client just before the stream's iterator throws the same error. */
  | { type: 'error'; error: LLMError };

export type StreamEventType = StreamEvent['type'];

/**
 * How long an adapter waits (defaults: connect 10 s, request 120 s, stream read 30 s). `requestMs` bounds a
 * whole non-streaming call; `connectMs` a stream's wait for the server to answer (its response headers);
 * `streamReadMs` each wait for the next stream event, the first included, so a server that stops sending
 * mid-stream fails within it. Exceeding any of them throws RequestTimeoutError.
 */
export interface TimeoutConfig {
  connectMs: number;
  requestMs: number;
  streamReadMs: number;
}

/** What an adapter (and the client) receives alongside a request. */
export interface CallOptions {
  signal?: AbortSignal;
  /** The client's and the call's overrides; the adapter lays them over its own settings and the defaults. */
  timeouts?: Partial<TimeoutConfig>;
}

/** Runs one tool call for the generate loop. A thrown error becomes an error result for the model. */
export type ToolExecutor = (
  call: ToolCallPart,
  context: { signal: AbortSignal; messages: readonly Message[] },
) => Promise<string | { content: string; isError?: boolean; images?: ImagePart[] }>;

export interface StepResult {
  response: Response;
  text: string;
  reasoning?: string;
  toolCalls: ToolCallPart[];
  toolResults: ToolResultPart[];
  finishReason: FinishReason;
  usage: TokenUsage;
}

export interface GenerateResult<T = unknown> {
  text: string;
  reasoning?: string;
  /** Tool calls of the final step (calls the loop did not execute, e.g. with no executor or rounds exhausted). */
  toolCalls: ToolCallPart[];
  /** Every tool result produced across all steps. */
  toolResults: ToolResultPart[];
  finishReason: FinishReason;
  /** Usage of the final step. */
  usage: TokenUsage;
  /** Usage summed over all steps. */
  totalUsage: TokenUsage;
  steps: StepResult[];
  response: Response;
  /** The whole conversation after the loop, ready to continue. */
  messages: Message[];
  /** The parsed object of generateObject. */
  output?: T;
}
