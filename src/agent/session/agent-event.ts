import type { EventData } from '../../shared/events/event-data-schemas.js';

/**
 * What a session reports while it works: the AgentEventType table plus
 * PROCESSING_END and WARNING, USAGE after every model call, COMPACTION when
 * older turns were summarised and OUTPUT_TRUNCATED when an answer stopped at the output limit. The pipeline stream carries them as `agent.<kind>`.
 */
export const AgentEventKind = {
  SESSION_START: 'session_start',
  SESSION_END: 'session_end',
  USER_INPUT: 'user_input',
  PROCESSING_END: 'processing_end',
  ASSISTANT_TEXT_START: 'assistant_text_start',
  ASSISTANT_TEXT_DELTA: 'assistant_text_delta',
  ASSISTANT_TEXT_END: 'assistant_text_end',
  TOOL_CALL_START: 'tool_call_start',
  TOOL_CALL_OUTPUT_DELTA: 'tool_call_output_delta',
  TOOL_CALL_END: 'tool_call_end',
  STEERING_INJECTED: 'steering_injected',
  TURN_LIMIT: 'turn_limit',
  LOOP_DETECTION: 'loop_detection',
  CONTEXT_WINDOW_WARNING: 'context_window_warning',
  OUTPUT_TRUNCATED: 'output_truncated',
  COMPACTION: 'compaction',
  USAGE: 'usage',
  WARNING: 'warning',
  ERROR: 'error',
} as const;

export type AgentEventKind = (typeof AgentEventKind)[keyof typeof AgentEventKind];

/**
 * The data of a `K` event: the pipeline's `agent.<K>` schema (shared/events/agent-event-schemas.ts)
 * less what the pipeline adds on the way (the session id; a parallel branch's or child's tags), so a
 * field the session writes or reads is checked against the one protocol.
 */
export type AgentEventData<K extends AgentEventKind> = Omit<
  EventData<`agent.${K}`>,
  'session_id' | 'branch' | 'parent'
>;

/** One event of kind `K`. */
export interface AgentEventOf<K extends AgentEventKind> {
  kind: K;
  /** ISO 8601. */
  timestamp: string;
  sessionId: string;
  data: AgentEventData<K>;
}

/** What a session reports, told apart by `kind`: `if (e.kind === 'usage') e.data.usage` is a typed read. */
export type AgentEvent = { [K in AgentEventKind]: AgentEventOf<K> }[AgentEventKind];

let lastMs = 0;
let lastIso = new Date(0).toISOString();

/** ISO time of `ms`; a busy loop emits many events per millisecond, so the string is reused within one. */
function isoAt(ms: number): string {
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

export function agentEvent<K extends AgentEventKind>(
  sessionId: string,
  kind: K,
  data: AgentEventData<K>,
  /** When it happened, if the caller already read the clock in the same synchronous step (Date.now() is not free). */
  atMs: number = Date.now(),
): AgentEvent {
  // The one widening: TypeScript cannot see that an AgentEventOf<K> for a generic K is a member of the
  // union (microsoft/TypeScript#30581); the signature already ties `data` to `kind`.
  return { kind, timestamp: isoAt(atMs), sessionId, data } as AgentEvent;
}
