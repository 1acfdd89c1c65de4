import type { FinishReason } from '../../types.js';

/** Chat Completions' `finish_reason` → the unified reason; servers that send none (or their own words) get `other`. */
export function mapOpenAICompatibleFinishReason(
  raw: string | null | undefined,
  hasToolCalls: boolean,
): FinishReason {
  switch (raw) {
    case 'stop':
      // Some servers say `stop` after tool calls; the calls are what the caller must act on.
      return { reason: hasToolCalls ? 'tool_calls' : 'stop', raw };
    case 'length':
      return { reason: 'length', raw };
    case 'tool_calls':
    case 'function_call':
      return { reason: 'tool_calls', raw };
    case 'content_filter':
      return { reason: 'content_filter', raw };
    case null:
    case undefined:
      return hasToolCalls ? { reason: 'tool_calls' } : { reason: 'other' };
    default:
      return { reason: 'other', raw };
  }
}
