import type { FinishReason } from '../../types.js';

/** Messages API `stop_reason` to the unified finish reason, keeping the raw value. */
export function mapAnthropicFinishReason(stopReason: string | null | undefined): FinishReason {
  const raw = stopReason ?? undefined;
  const withRaw = (reason: FinishReason['reason']): FinishReason =>
    raw === undefined ? { reason } : { reason, raw };
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return withRaw('stop');
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return withRaw('length');
    case 'tool_use':
      return withRaw('tool_calls');
    case 'refusal':
      return withRaw('content_filter');
    case null:
    case undefined:
      return { reason: 'other' };
    default:
      return withRaw('other');
  }
}
