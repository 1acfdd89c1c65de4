import type { PromptResponse } from '@agentclientprotocol/sdk';
import * as z from 'zod';
import type { AgentPipelineEvent } from './session-update-events.js';

/** ACP's `session/prompt` usage (an unstable field of the protocol: validated, never trusted). */
const promptUsageSchema = z.object({
  totalTokens: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  thoughtTokens: z.number().nullish(),
  cachedReadTokens: z.number().nullish(),
  cachedWriteTokens: z.number().nullish(),
});

/**
 * The token usage an agent reports with the end of its turn, as an `agent.usage` event shaped like the
 * built-in session's (`usage` with the unified client's field names). Undefined when none is reported.
 */
export function promptUsageEvent(response: PromptResponse): AgentPipelineEvent | undefined {
  const parsed = promptUsageSchema.safeParse((response as { usage?: unknown }).usage);
  if (!parsed.success) return undefined;
  const u = parsed.data;
  return {
    kind: 'agent.usage',
    data: {
      usage: {
        inputTokens: u.inputTokens,
        outputTokens: u.outputTokens,
        totalTokens: u.totalTokens,
        ...(u.thoughtTokens != null ? { reasoningTokens: u.thoughtTokens } : {}),
        ...(u.cachedReadTokens != null ? { cacheReadTokens: u.cachedReadTokens } : {}),
        ...(u.cachedWriteTokens != null ? { cacheWriteTokens: u.cachedWriteTokens } : {}),
      },
    },
  };
}
