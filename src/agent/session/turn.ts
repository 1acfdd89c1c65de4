import type { Message, TokenUsage } from '../../llm/index.js';

/**
 * One entry of a session's history. History is kept as turns, not provider
 * messages, so compaction, loop warnings and `full` fidelity reuse can tell a user's words from injected ones.
 */
export type Turn = UserTurn | AssistantTurn | ToolResultsTurn | SystemTurn | SteeringTurn;

export interface UserTurn {
  kind: 'user';
  text: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
}

export interface AssistantTurn {
  kind: 'assistant';
  /** The model's whole message (text, thinking with signatures, tool calls), sent back verbatim. */
  message: Message;
  usage: TokenUsage;
  responseId: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
}

export interface ToolResult {
  toolCallId: string;
  toolName: string;
  /** What the model sees (truncated). */
  content: string;
  isError: boolean;
}

export interface ToolResultsTurn {
  kind: 'tool_results';
  results: ToolResult[];
  /** Milliseconds since the epoch. */
  timestamp: number;
}

/** Text the session itself adds for the model, e.g. the summary that replaces compacted turns. */
export interface SystemTurn {
  kind: 'system';
  text: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
}

/** A steer() message or a loop-detection warning: sent to the model as a user message. */
export interface SteeringTurn {
  kind: 'steering';
  text: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
}

const now = (): number => Date.now();

export const Turns = {
  user: (text: string): UserTurn => ({ kind: 'user', text, timestamp: now() }),
  system: (text: string): SystemTurn => ({ kind: 'system', text, timestamp: now() }),
  steering: (text: string): SteeringTurn => ({ kind: 'steering', text, timestamp: now() }),
  toolResults: (results: ToolResult[], timestamp = now()): ToolResultsTurn => ({
    kind: 'tool_results',
    results,
    timestamp,
  }),
  assistant: (message: Message, usage: TokenUsage, responseId: string, timestamp = now()): AssistantTurn => ({
    kind: 'assistant',
    message,
    usage,
    responseId,
    timestamp,
  }),
} as const;
