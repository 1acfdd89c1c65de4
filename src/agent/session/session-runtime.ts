import type { LLMClient, ReasoningEffort, Response } from '../../llm/index.js';
import type { ExecutionEnvironment } from '../environment/execution-environment.js';
import type { ToolHooks } from '../hooks/run-tool-hooks.js';
import type { ProviderProfile } from '../profiles/provider-profile.js';
import type { AgentTool } from '../tools/define-tool.js';
import type { AgentEventData, AgentEventKind } from './agent-event.js';
import type { ContextWindowTracker } from './context-window-tracker.js';
import type { HistoryMessages } from './history-messages.js';
import type { LoopDetector } from './loop-detector.js';
import type { SessionConfig } from './session-config.js';
import type { Turn } from './turn.js';

/**
 * The state the agentic loop works on, owned by the Session and handed to the loop's pieces (model call,
 * tool round, compaction), so each of them is a function of it rather than a method of one large class.
 */
export interface SessionRuntime {
  readonly id: string;
  readonly depth: number;
  readonly client: LLMClient;
  readonly profile: ProviderProfile;
  readonly env: ExecutionEnvironment;
  readonly config: SessionConfig;
  readonly model: string;
  /** The most output tokens a turn may ask for (config, catalog or default: output-budget.ts). */
  readonly outputLimit: number;
  readonly tools: ReadonlyMap<string, AgentTool>;
  readonly toolHooks: ToolHooks | undefined;
  readonly loopDetector: LoopDetector;
  readonly contextWindow: ContextWindowTracker;
  /** Provider messages of `history`, converted as turns are appended. */
  readonly messages: HistoryMessages;
  history: Turn[];
  /** Model round-trips so far, the whole session (max_turns). */
  turnCount: number;
  reasoningEffort: ReasoningEffort | undefined;
  /** Built once, at the first input. */
  systemPrompt: string;
  /** `atMs`: the time, when the caller already read the clock in the same synchronous step. */
  emit<K extends AgentEventKind>(kind: K, data: AgentEventData<K>, atMs?: number): void;
  /**
   * Adds a response's usage to the session's totals and emits USAGE. `startedAtMs`: when the call was
   * made (the event then carries its duration).
   */
  recordUsage(response: Response, phase: 'turn' | 'compaction', atMs?: number, startedAtMs?: number): void;
  /** Steering messages queued since the last drain, oldest first. */
  takeSteering(): readonly string[];
  /** The next queued follow-up input, if any. */
  takeFollowUp(): string | undefined;
}
