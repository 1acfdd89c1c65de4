/**
 * `attractor-pipelines/agent`: the coding agent as a library — a session you create, submit to, steer, follow up and
 * abort, whose events you read as an async iterable or subscribe to; the provider profiles (tool sets, system
 * prompts, limits); `defineTool` for your own tools; the execution environment interface and its local
 * implementation; and `createAgentBackend`, which runs a pipeline's agent nodes with your tools and your
 * environment (pass it as `backend` to `runPipeline`). Explicit named exports only.
 *
 * @example
 * import { createSession, getProfile, LocalExecutionEnvironment } from 'attractor-pipelines/agent';
 * import { LLMClient } from 'attractor-pipelines/llm';
 * const session = createSession({
 *   client: LLMClient.fromEnv(),
 *   profile: getProfile('anthropic'),
 *   env: new LocalExecutionEnvironment({ workingDir: '/tmp/project' }),
 * });
 * for await (const event of session.submit('Add a test for parseConfig')) console.log(event.kind);
 * await session.shutdown();
 */

// Running a pipeline's agent nodes with your tools and environment
export {
  type AgentBackend,
  type AgentBackendOptions,
  type AgentEnvironmentContext,
  createAgentBackend,
} from './actors/codergen/agent-backend.js';
export { configuredProviders, type ProviderStatus } from './actors/codergen/configured-providers.js';
export type { ModelChoice } from './actors/codergen/resolve-model.js';
export { type LedgerOptions, UsageLedger } from './actors/codergen/usage-ledger.js';
export type { UsageTotals } from './actors/codergen/usage-totals.js';
// Where the agent works
export type {
  DirEntry,
  ExecOptions,
  ExecResult,
  ExecutionEnvironment,
  FileChange,
  GrepMatch,
  GrepOptions,
  GrepResult,
} from './agent/environment/execution-environment.js';
export { FileNotFoundError } from './agent/environment/file-not-found-error.js';
export {
  LocalExecutionEnvironment,
  type LocalExecutionEnvironmentOptions,
} from './agent/environment/local-execution-environment.js';
export { PathOutsideWorkdirError } from './agent/environment/path-outside-workdir-error.js';
export type { ToolCallMeta, ToolHooks } from './agent/hooks/run-tool-hooks.js';
// Provider profiles
export { anthropicProfile } from './agent/profiles/anthropic-profile.js';
export {
  createProfile,
  type ProfileOptions,
  type ProfileSpec,
} from './agent/profiles/create-profile.js';
export { geminiProfile } from './agent/profiles/gemini-profile.js';
export { getProfile, PROFILE_PROVIDERS } from './agent/profiles/get-profile.js';
export { openaiCompatibleProfile } from './agent/profiles/openai-compatible-profile.js';
export { openaiProfile } from './agent/profiles/openai-profile.js';
export type { ProfileId, ProviderProfile } from './agent/profiles/provider-profile.js';
export type { SystemPromptContext } from './agent/profiles/system-prompt.js';
// The session
export { type AgentEvent, AgentEventKind } from './agent/session/agent-event.js';
export { DEFAULT_AGENT_MAX_TOKENS } from './agent/session/output-budget.js';
export { type CreateSessionOptions, createSession, type Session } from './agent/session/session.js';
export {
  type SessionConfig,
  type SessionConfigInput,
  SessionConfigSchema,
  type TruncationConfig,
} from './agent/session/session-config.js';
export type { SessionState } from './agent/session/session-lifecycle-machine.js';
export type {
  AssistantTurn,
  SteeringTurn,
  SystemTurn,
  ToolResult,
  ToolResultsTurn,
  Turn,
  UserTurn,
} from './agent/session/turn.js';
// Tools
export {
  type AgentTool,
  type AgentToolResult,
  defineTool,
  type ToolContext,
} from './agent/tools/define-tool.js';
export { BUILTIN_TOOLS, createDefaultTools, ToolRegistry } from './agent/tools/tool-registry.js';
