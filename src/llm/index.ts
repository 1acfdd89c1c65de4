/**
 * attractor-pipelines/llm — the unified LLM client over the official Anthropic, OpenAI and Gemini SDKs.
 *
 * @example
 * import { LLMClient, Message } from 'attractor-pipelines/llm';
 * const client = LLMClient.fromEnv();
 * const result = await client.generate({ model: 'claude-sonnet-4-6', prompt: 'Say hi' });
 */
export { getDefaultModel, getLatestModel, getModelInfo, isPriced, listModels } from './catalog.js';
export { LLMClient, type LLMClientOptions, type RequestOptions } from './client.js';
export { estimateCost } from './cost.js';
export { generate, generateObject, getDefaultClient, setDefaultClient, stream } from './default-client.js';
export { detectProvider } from './detect-provider.js';
export { adaptersFromEnv, type EnvAdapterOptions } from './env-adapters.js';
export {
  type LLMEnvConfig,
  loadDotEnv,
  type ProviderEnvConfig,
  parseDotEnv,
  readLLMEnvConfig,
} from './env-config.js';
export { AbortError } from './errors/abort-error.js';
export { AuthenticationError } from './errors/authentication-error.js';
export { ConfigurationError } from './errors/configuration-error.js';
export { ContentFilterError } from './errors/content-filter-error.js';
export { ContextLengthError } from './errors/context-length-error.js';
export { errorFromException } from './errors/error-from-exception.js';
export { errorFromHttpStatus, type HttpErrorInput } from './errors/error-from-http-status.js';
export { InvalidRequestError } from './errors/invalid-request-error.js';
export { InvalidToolCallError } from './errors/invalid-tool-call-error.js';
export {
  LLMError,
  /** Another name for the base of every client error, kept for code written with it. */
  LLMError as SDKError,
  type LLMErrorOptions,
} from './errors/llm-error.js';
export { NetworkError } from './errors/network-error.js';
export { NoObjectGeneratedError } from './errors/no-object-generated-error.js';
export { NotFoundError } from './errors/not-found-error.js';
export { parseRetryAfter } from './errors/parse-retry-after.js';
export {
  /** Another name for HTTP 403's error, kept for code written with it. */
  PermissionDeniedError as AccessDeniedError,
  PermissionDeniedError,
} from './errors/permission-denied-error.js';
export { ProviderError } from './errors/provider-error.js';
export { QuotaExceededError } from './errors/quota-exceeded-error.js';
export { RateLimitError } from './errors/rate-limit-error.js';
export { RequestTimeoutError } from './errors/request-timeout-error.js';
export { reviveLLMError } from './errors/revive-llm-error.js';
export { ServerError } from './errors/server-error.js';
export { StreamError } from './errors/stream-error.js';
export { UnsupportedToolChoiceError } from './errors/unsupported-tool-choice-error.js';
export {
  defineLLMTool,
  type ExecutableTool,
  type LLMToolSpec,
  type ToolExecuteContext,
  type ToolOutput,
} from './executable-tool.js';
export { DEFAULT_MAX_TOOL_ROUNDS, type GenerateOptions } from './generate.js';
export type { GenerateObjectOptions } from './generate-object.js';
export { llmEnvStatus, noProviderMessage, type ProviderEnvStatus } from './llm-env-status.js';
export {
  hasToolCalls,
  Message,
  messageReasoning,
  messageText,
  messageToolCalls,
  toolCallPart,
} from './message.js';
export { LoggingMiddleware, type LoggingMiddlewareOptions } from './middleware/logging-middleware.js';
export type { CompleteNext, Middleware, StreamNext } from './middleware/middleware.js';
export { RecordMiddleware, type RecordMiddlewareOptions } from './middleware/record-middleware.js';
export { ReplayMiddleware, type ReplayMiddlewareOptions } from './middleware/replay-middleware.js';
export { TokenTrackingMiddleware } from './middleware/token-tracking-middleware.js';
export type { ModelCapability, ModelInfo } from './model-info.js';
export type { ProviderAdapter } from './provider-adapter.js';
export { AnthropicAdapter, type AnthropicAdapterOptions } from './providers/anthropic/anthropic-adapter.js';
export { GeminiAdapter, type GeminiAdapterOptions } from './providers/gemini/gemini-adapter.js';
export { OpenAIAdapter, type OpenAIAdapterOptions } from './providers/openai/openai-adapter.js';
export {
  OpenAICompatibleAdapter,
  type OpenAICompatibleAdapterOptions,
} from './providers/openai-compatible/openai-compatible-adapter.js';
export { createResponse, type ResponseFields } from './response.js';
export {
  createRetryPolicy,
  defaultRetryPolicy,
  type OnRetry,
  type RetryPolicy,
  retryDelayMs,
  withRetry,
} from './retry.js';
export { StreamAccumulator } from './stream-accumulator.js';
export { StreamResult } from './stream-result.js';
export { DEFAULT_TIMEOUTS, resolveTimeouts } from './timeout-config.js';
export type { RepairToolCall } from './tools/execute-tool-call.js';
export { TOOL_NAME_PATTERN } from './tools/tool-name.js';
export type {
  AudioPart,
  CallOptions,
  ContentKind,
  ContentPart,
  DocumentPart,
  FinishReason,
  FinishReasonValue,
  GenerateResult,
  ImagePart,
  RateLimitInfo,
  ReasoningEffort,
  RedactedThinkingPart,
  Request,
  Response,
  ResponseFormat,
  Role,
  StepResult,
  StreamEvent,
  StreamEventType,
  TextPart,
  ThinkingPart,
  TimeoutConfig,
  TokenUsage,
  ToolCallPart,
  ToolChoice,
  ToolChoiceMode,
  ToolDefinition,
  ToolExecutor,
  ToolResultPart,
} from './types.js';
export { addUsage, createUsage } from './usage.js';
