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
 * `data` keys per kind:
 * session_start/session_end `state` · user_input `text` · assistant_text_delta/end `text` ·
 * tool_call_start `tool_name, tool_call_id, arguments` · tool_call_output_delta `text, tool_call_id` ·
 * tool_call_end `tool_name, tool_call_id, output, truncated_output, is_error` · steering_injected `text` ·
 * turn_limit `turns, limit` (+ `kind`: turns | tool_rounds) · loop_detection `pattern, window` ·
 * context_window_warning `usage_fraction, threshold, message` ·
 * output_truncated `max_tokens, message` (+ `tool_name, tool_call_id` when a tool call was cut off, not run) · usage `model, provider, usage, cost_usd` ·
 * compaction `removed_turns, tokens_before` · warning `message` · error `error, phase`.
 */
export interface AgentEvent {
  kind: AgentEventKind;
  /** ISO 8601. */
  timestamp: string;
  sessionId: string;
  data: Record<string, unknown>;
}

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

export function agentEvent(
  sessionId: string,
  kind: AgentEventKind,
  data: Record<string, unknown> = {},
  /** When it happened, if the caller already read the clock in the same synchronous step (Date.now() is not free). */
  atMs: number = Date.now(),
): AgentEvent {
  return { kind, timestamp: isoAt(atMs), sessionId, data };
}
