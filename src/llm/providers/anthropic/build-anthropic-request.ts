import type { Anthropic } from '@anthropic-ai/sdk';
import { UnsupportedToolChoiceError } from '../../errors/unsupported-tool-choice-error.js';
import type { ReasoningEffort, Request } from '../../types.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;
export const PROMPT_CACHING_BETA = 'prompt-caching-2024-07-31';

/** Extended-thinking budgets per effort level (the API's minimum budget is 1024). */
export const THINKING_BUDGETS: Record<ReasoningEffort, number> = { low: 2048, medium: 8192, high: 24_576 };

/** Models on which the SDK deprecates budgeted thinking in favour of adaptive thinking with an effort level. */
const ADAPTIVE_THINKING_MODELS = new Set(['claude-opus-4-6', 'claude-mythos-preview']);

export interface AnthropicRequestPlan {
  params: Anthropic.MessageCreateParamsNonStreaming;
  headers: Record<string, string>;
}

type CacheableBlock = { cache_control?: Anthropic.CacheControlEphemeral | null };
const EPHEMERAL: Anthropic.CacheControlEphemeral = { type: 'ephemeral' };

function anthropicOptions(request: Request): Record<string, unknown> {
  return request.providerOptions?.['anthropic'] ?? {};
}

/**
 * The `anthropic-beta` values asked for: the spec's `beta_headers`, and `betaHeaders` as this client first
 * spelled it; each a list of names (or one name).
 */
function betaHeaders(options: Record<string, unknown>): string[] {
  return [options['beta_headers'], options['betaHeaders']].flatMap((value) =>
    Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [],
  );
}

function toolChoice(request: Request): Anthropic.ToolChoice | undefined {
  const choice = request.toolChoice;
  if (!choice) return undefined;
  switch (choice.mode) {
    case 'auto':
      return { type: 'auto' };
    case 'required':
      return { type: 'any' };
    case 'none':
      return { type: 'none' };
    case 'named':
      if (!choice.toolName) {
        throw new UnsupportedToolChoiceError('Tool choice "named" needs a toolName.', {
          provider: 'anthropic',
        });
      }
      return { type: 'tool', name: choice.toolName };
  }
}

/**
 * Prompt caching: breakpoints on the last tool, the last system block and the last block of the two latest user
 * turns (the API allows four), so each turn reads the prefix the previous turn wrote.
 */
function placeCacheBreakpoints(params: Anthropic.MessageCreateParamsNonStreaming): boolean {
  let placed = false;
  const mark = (block: CacheableBlock | undefined) => {
    if (!block) return;
    block.cache_control = EPHEMERAL;
    placed = true;
  };
  mark(params.tools?.at(-1) as CacheableBlock | undefined);
  if (Array.isArray(params.system)) mark(params.system.at(-1) as CacheableBlock | undefined);
  const userTurns = params.messages.filter((message) => message.role === 'user').slice(-2);
  for (const turn of userTurns) {
    if (!Array.isArray(turn.content)) continue;
    const last = turn.content.at(-1);
    if (last && last.type !== 'thinking' && last.type !== 'redacted_thinking') mark(last as CacheableBlock);
  }
  return placed;
}

/** The Messages API parameters and extra headers for a unified request. */
export function buildAnthropicRequest(request: Request): AnthropicRequestPlan {
  const options = anthropicOptions(request);
  const { system, messages } = convertToAnthropicMessages(request.messages, request.systemPrompt);
  if (request.responseFormat?.type === 'json') {
    system.push({ type: 'text', text: 'Respond with a single JSON value and nothing else.' });
  }
  const params: Anthropic.MessageCreateParamsNonStreaming = {
    model: request.model,
    max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    messages,
  };
  if (system.length > 0) params.system = system;
  if (request.stopSequences?.length) params.stop_sequences = request.stopSequences;
  const metadataUser = request.metadata?.['user_id'];
  if (typeof metadataUser === 'string') params.metadata = { user_id: metadataUser };
  const choice = toolChoice(request);
  if (request.tools?.length && choice?.type !== 'none') {
    params.tools = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters as Anthropic.Tool['input_schema'],
      ...(tool.strict ? { strict: true } : {}),
    }));
    if (choice) params.tool_choice = choice;
  }
  const effort = request.reasoningEffort;
  if (effort) {
    if (ADAPTIVE_THINKING_MODELS.has(request.model)) {
      params.thinking = { type: 'adaptive' };
      params.output_config = { effort };
    } else {
      const budget = THINKING_BUDGETS[effort];
      params.thinking = { type: 'enabled', budget_tokens: budget };
      // The budget is part of max_tokens; leave room for the answer.
      if (params.max_tokens <= budget) params.max_tokens = budget + ANTHROPIC_DEFAULT_MAX_TOKENS;
    }
  } else {
    // Thinking requires the default sampling, so these only apply without it.
    // SDK 1.12's types no longer list these; send them only when the caller asked, as the wire API takes them.
    const sampling = params as unknown as Record<string, unknown>;
    if (request.temperature !== undefined) sampling['temperature'] = request.temperature;
    if (request.topP !== undefined) sampling['top_p'] = request.topP;
  }
  if (request.responseFormat?.type === 'json_schema') {
    params.output_config = {
      ...params.output_config,
      format: { type: 'json_schema', schema: request.responseFormat.jsonSchema },
    };
  }
  const betas = new Set<string>(betaHeaders(options));
  const autoCache = options['autoCache'] !== false && options['auto_cache'] !== false;
  if (autoCache && placeCacheBreakpoints(params)) betas.add(PROMPT_CACHING_BETA);
  const passthrough = options['params'];
  if (typeof passthrough === 'object' && passthrough !== null) Object.assign(params, passthrough);
  return { params, headers: betas.size > 0 ? { 'anthropic-beta': [...betas].join(',') } : {} };
}
