import type { AnyActorRef } from 'xstate';
import type { LLMClient, ReasoningEffort, TokenUsage } from '../../llm/index.js';
import type { ExecutionEnvironment } from '../environment/execution-environment.js';
import type { ToolHooks } from '../hooks/run-tool-hooks.js';
import type { ProviderProfile } from '../profiles/provider-profile.js';
import type { AgentTool } from '../tools/define-tool.js';
import type { AgentEvent } from './agent-event.js';
import type { SessionConfigInput } from './session-config.js';
import type { SessionState } from './session-lifecycle-machine.js';
import type { Turn } from './turn.js';

export interface CreateSessionOptions {
  client: LLMClient;
  profile: ProviderProfile;
  env: ExecutionEnvironment;
  /** Defaults to `config.modelId`, then the profile's model. */
  model?: string;
  config?: Partial<SessionConfigInput>;
  /** Shell commands run around each tool call (`tool_hooks.pre` / `tool_hooks.post`). */
  toolHooks?: ToolHooks;
  /** Aborting it aborts the session (node timeout, run cancelled). */
  signal?: AbortSignal;
  /** Starts the lifecycle actor as a child of this actor, in its system (so the inspector shows it there). */
  parent?: AnyActorRef;
  /** Receives every event of the session, whichever submit() it belongs to, SESSION_END included. */
  onEvent?: (event: AgentEvent) => void;
  /** Extra tools; a tool named like a profile tool replaces it. */
  tools?: AgentTool[];
  /** History to continue from (`full` fidelity reuses a thread across nodes). */
  history?: readonly Turn[];
  /** Subagent nesting depth of this session; 0 for a top-level session. */
  depth?: number;
}

/**
 * An autonomous coding agent conversation.
 *
 * @example
 * const session = createSession({ client, profile: getProfile('anthropic'), env });
 * for await (const event of session.submit('Add a test for parseConfig')) {
 *   if (event.kind === 'assistant_text_delta') process.stdout.write(String(event.data.text));
 * }
 * await session.shutdown();
 */
export interface Session {
  readonly id: string;
  readonly depth: number;
  readonly model: string;
  readonly state: SessionState;
  /**
   * Starts processing `input` at once and returns its events; the stream ends when the model answers with text
   * only or a limit is hit (and queued follow-ups are done). Throws `agent.session_busy` while processing and
   * `agent.session_closed` once closed.
   */
  submit(input: string): AsyncIterableIterator<AgentEvent>;
  /** Injected as a user message after the current tool round. */
  steer(message: string): void;
  /** Processed as a new input once the current one finishes. */
  followUp(message: string): void;
  /** Takes effect on the next model call. */
  setReasoningEffort(effort: ReasoningEffort | undefined): void;
  /** Cancels the model call, kills running tool processes, closes subagents, then CLOSED. */
  abort(): void;
  /** abort() and wait until the session is CLOSED. */
  shutdown(): Promise<void>;
  /** Subscribes to every event; returns the unsubscribe function. */
  subscribe(listener: (event: AgentEvent) => void): () => void;
  /** A copy of the turns so far. */
  readonly history: readonly Turn[];
  /** Totals of every model call, subagents included. */
  readonly usage: TokenUsage;
  /** Estimated USD cost of `usage` at catalog prices (calls of unknown models count 0). */
  readonly costUsd: number;
  /** The lifecycle machine's actor. */
  readonly actor: AnyActorRef;
}
