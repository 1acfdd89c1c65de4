import type { FinishReason } from '../../types.js';

const CONTENT_FILTER = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);
const TOOL_ERRORS = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS']);

/**
 * Gemini's `finishReason` → the unified reason. Gemini says STOP even when it called functions, so
 * tool_calls is inferred from the functionCall parts; a prompt blocked before any candidate is content_filter.
 */
export function mapGeminiFinishReason(
  raw: string | undefined,
  hasToolCalls: boolean,
  promptBlockReason?: string,
): FinishReason {
  if (raw === undefined) {
    if (promptBlockReason) return { reason: 'content_filter', raw: promptBlockReason };
    return hasToolCalls ? { reason: 'tool_calls' } : { reason: 'other' };
  }
  if (raw === 'STOP') return { reason: hasToolCalls ? 'tool_calls' : 'stop', raw };
  if (raw === 'MAX_TOKENS') return { reason: 'length', raw };
  if (CONTENT_FILTER.has(raw)) return { reason: 'content_filter', raw };
  if (TOOL_ERRORS.has(raw)) return { reason: 'error', raw };
  return { reason: 'other', raw };
}
