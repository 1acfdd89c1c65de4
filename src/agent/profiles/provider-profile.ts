import type { AgentTool } from '../tools/define-tool.js';
import type { SystemPromptContext } from './system-prompt.js';

export type ProfileId = 'anthropic' | 'openai' | 'gemini' | 'openai-compatible';

/**
 * Provider-specific behaviour of the agent: which tools the model gets,
 * how its system prompt reads, its context window and its defaults. One per provider family; the session
 * adds the subagent tools itself, since they need the session.
 */
export interface ProviderProfile {
  readonly id: ProfileId;
  /** The LLM client adapter requests are routed to (`Request.provider`). */
  readonly providerName: string;
  /** The model used when none is given. */
  readonly model: string;
  /** Tokens, from the model catalog. */
  readonly contextWindow: number;
  /**
   * Output tokens a turn of `model` may produce (the catalog's limit, else the agent default); a session asks
   * for this much unless its config says otherwise. Absent: the session looks the model up itself.
   */
  readonly maxOutputTokens?: number;
  /** Shell timeout when neither the model nor SessionConfig sets one. */
  readonly defaultCommandTimeoutMs: number;
  readonly supportsReasoning: boolean;
  readonly supportsStreaming: boolean;
  readonly supportsParallelToolCalls: boolean;
  /** Instruction file names it loads: AGENTS.md plus its provider's own (CLAUDE.md, GEMINI.md, ...). */
  readonly instructionFiles: readonly string[];
  /** The base prompt with `{working_dir}`-style placeholders. */
  readonly systemPromptTemplate: string;
  /** The profile's tools (a later entry with the same name replaces an earlier one). */
  tools(): AgentTool[];
  buildSystemPrompt(context: SystemPromptContext): string;
  /** `Request.providerOptions` for every call, if any. */
  providerOptions(): Record<string, Record<string, unknown>> | undefined;
}
