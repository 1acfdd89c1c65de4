/** The agent session: the agentic loop as an XState-run actor with steering, follow-ups and subagents. */
export { type AgentEvent, AgentEventKind, agentEvent } from './agent-event.js';
export { COMPACTION_SUMMARY_HEADER, SUMMARIZATION_PROMPT } from './compact-history.js';
export { fingerprintToolCall, LoopDetector, loopWarningText } from './loop-detector.js';
export { type CreateSessionOptions, createSession, type Session } from './session.js';
export {
  resolveSessionConfig,
  type SessionConfig,
  type SessionConfigInput,
  SessionConfigSchema,
  type TruncationConfig,
} from './session-config.js';
export { type SessionState, sessionLifecycleMachine } from './session-lifecycle-machine.js';
export type {
  AssistantTurn,
  SteeringTurn,
  SystemTurn,
  ToolResult,
  ToolResultsTurn,
  Turn,
  UserTurn,
} from './turn.js';
