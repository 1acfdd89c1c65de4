import * as z from 'zod';
import { AttractorError } from '../../shared/errors.js';

/** Per-tool output limits; unset entries keep the defaults. */
export const TruncationConfigSchema = z
  .object({
    charLimits: z.record(z.string(), z.number().int().positive()).optional(),
    truncationModes: z.record(z.string(), z.enum(['head_tail', 'tail'])).optional(),
    lineLimits: z.record(z.string(), z.number().int().positive()).optional(),
  })
  .strict();
export type TruncationConfig = z.infer<typeof TruncationConfigSchema>;

/**
 * Configuration of one agent session, with its defaults. `0` means unlimited for the two limits.
 */
export const SessionConfigSchema = z
  .object({
    /** Model round-trips across the whole session. */
    maxTurns: z.number().int().min(0).default(0),
    /** Tool rounds per `submit()` (follow-ups count as new inputs). */
    maxToolRoundsPerInput: z.number().int().min(0).default(0),
    /** Shell timeout when the model gives none; unset means the profile's default. */
    defaultCommandTimeoutMs: z.number().int().positive().optional(),
    /** Hard ceiling on any shell timeout, whatever the model asks for. */
    maxCommandTimeoutMs: z.number().int().positive().default(600_000),
    reasoningEffort: z.enum(['low', 'medium', 'high']).optional(),
    /**
     * Output tokens each model turn may produce (ours; a node's `max_tokens`). Unset: the model's own limit from
     * the catalog, else 16,384. Never more than the context window leaves after the input.
     */
    maxTokens: z.number().int().positive().optional(),
    enableLoopDetection: z.boolean().default(true),
    loopDetectionWindow: z.number().int().min(2).default(10),
    maxSubagentDepth: z.number().int().min(0).default(1),
    /** Overrides the model given to createSession when non-empty. */
    modelId: z.string().default(''),
    /** Appended last to the system prompt, so it overrides everything before it. */
    userInstructions: z.string().default(''),
    truncationConfig: TruncationConfigSchema.optional(),
    /** Fraction of the context window at which CONTEXT_WINDOW_WARNING is emitted. */
    contextWindowWarningThreshold: z.number().min(0).max(1).default(0.8),
    /**
     * Off by default, when the session only warns (CONTEXT_WINDOW_WARNING; docs/decisions/0028-coding-agent-model-and-outcome.md): when on, a request
     * that would not fit under `compactionThreshold` of the window, or that the provider refused as too long,
     * first has the older turns summarised into one message by an extra, billed model call. A node's
     * `auto_compact=true` turns it on.
     */
    enableCompaction: z.boolean().default(false),
    /** Fraction of the context window above which the next request triggers a compaction (ours). */
    compactionThreshold: z.number().gt(0).max(1).default(0.9),
  })
  .strict();

export type SessionConfig = z.infer<typeof SessionConfigSchema>;
export type SessionConfigInput = z.input<typeof SessionConfigSchema>;

/** A full config from a partial one, defaults filled; an invalid field is an `agent.config_invalid` error. */
export function resolveSessionConfig(config: Partial<SessionConfigInput> = {}): SessionConfig {
  const parsed = SessionConfigSchema.safeParse(config);
  if (parsed.success) return parsed.data;
  throw new AttractorError(
    'agent.config_invalid',
    `Invalid session config: ${z.prettifyError(parsed.error)}`,
  );
}
