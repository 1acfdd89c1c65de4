import { getLatestModel, getModelInfo } from '../../../llm/index.js';
import { DEFAULT_AGENT_MAX_TOKENS } from '../session/output-budget.js';
import type { AgentTool } from '../tools/define-tool.js';
import { createDefaultTools } from '../tools/tool-registry.js';
import type { ProfileId, ProviderProfile } from './provider-profile.js';
import { composeSystemPrompt } from './system-prompt.js';

/** Context window when neither the model nor its provider is in the catalog. */
const FALLBACK_CONTEXT_WINDOW = 128_000;

export interface ProfileSpec {
  id: ProfileId;
  providerName: string;
  /** The catalog provider whose latest model is the default (openai-compatible has none). */
  catalogProvider?: string;
  fallbackModel: string;
  toolNames: readonly string[];
  instructionFiles: readonly string[];
  systemPromptTemplate: string;
  defaultCommandTimeoutMs: number;
  supportsParallelToolCalls: boolean;
  providerOptions?: Record<string, Record<string, unknown>>;
}

export interface ProfileOptions {
  /** The model the session will use; sets the context window and reasoning support from the catalog. */
  model?: string;
  /** Overrides the catalog's context window (models the catalog does not know, tests). */
  contextWindow?: number;
  /** Overrides the catalog's output limit (models the catalog does not know). */
  maxOutputTokens?: number;
  /** Extra tools, registered after the profile's own (a same-named tool replaces the built-in one). */
  tools?: readonly AgentTool[];
  /** Adapter name requests go to (an OpenAI-compatible server registered under another name). */
  providerName?: string;
}

/** Builds a profile from its data; the four provider files only differ in their spec. */
export function createProfile(spec: ProfileSpec, options: ProfileOptions = {}): ProviderProfile {
  const latest = spec.catalogProvider ? getLatestModel(spec.catalogProvider, 'tools') : undefined;
  const model = options.model ?? latest?.id ?? spec.fallbackModel;
  const info = getModelInfo(model);
  const extra = options.tools ?? [];
  return {
    id: spec.id,
    providerName: options.providerName ?? spec.providerName,
    model,
    contextWindow:
      options.contextWindow ?? info?.contextWindow ?? latest?.contextWindow ?? FALLBACK_CONTEXT_WINDOW,
    maxOutputTokens: options.maxOutputTokens ?? info?.maxOutputTokens ?? DEFAULT_AGENT_MAX_TOKENS,
    defaultCommandTimeoutMs: spec.defaultCommandTimeoutMs,
    supportsReasoning: info?.supportsReasoning ?? false,
    supportsStreaming: info?.supportsStreaming ?? true,
    supportsParallelToolCalls: spec.supportsParallelToolCalls,
    instructionFiles: spec.instructionFiles,
    systemPromptTemplate: spec.systemPromptTemplate,
    tools() {
      const registry = createDefaultTools(spec.toolNames);
      for (const tool of extra) registry.register(tool);
      return registry.tools();
    },
    buildSystemPrompt(context) {
      return composeSystemPrompt(spec.systemPromptTemplate, context);
    },
    providerOptions: () => spec.providerOptions,
  };
}
