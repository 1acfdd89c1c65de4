import type { FinishReason } from '../../types.js';

export interface ResponsesOutcome {
  /** The Response object's `status`. */
  status: string | undefined;
  /** `incomplete_details.reason`, when the status is `incomplete`. */
  incompleteReason?: string | undefined;
  /** Whether the output holds at least one `function_call` item. */
  hasToolCalls: boolean;
}

/**
 * The Responses API has no finish reason: a response is `completed`, `incomplete` (with a reason) or
 * `failed`, and tool calls are output items. `raw` keeps the provider's own word.
 */
export function mapOpenAIFinishReason(outcome: ResponsesOutcome): FinishReason {
  switch (outcome.status) {
    case 'completed':
      return outcome.hasToolCalls
        ? { reason: 'tool_calls', raw: 'completed' }
        : { reason: 'stop', raw: 'completed' };
    case 'incomplete': {
      const raw = outcome.incompleteReason ?? 'incomplete';
      if (raw === 'max_output_tokens') return { reason: 'length', raw };
      if (raw === 'content_filter') return { reason: 'content_filter', raw };
      return { reason: 'other', raw };
    }
    case 'failed':
      return { reason: 'error', raw: 'failed' };
    default:
      return outcome.status === undefined ? { reason: 'other' } : { reason: 'other', raw: outcome.status };
  }
}
