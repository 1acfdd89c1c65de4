import { detectProvider, getDefaultModel } from '../../llm/index.js';
import { canonicalProvider, PROVIDER_ORDER, type ProviderStatus } from './configured-providers.js';

/** The model and provider one LLM call of a run uses, and why (printed by `--verbose`). */
export interface ResolvedModel {
  /** Undefined only when nothing names a model and no provider is configured. */
  model?: string;
  provider?: string;
  source: 'node' | 'default' | 'environment' | 'none';
}

export interface ModelChoice {
  /** After the stylesheet and the `--model` / `--provider` defaults. */
  model?: string | undefined;
  provider?: string | undefined;
}

/**
 * Resolves a node's model: what the node says (its attributes after the stylesheet, with `--model` /
 * `--provider` filling what it leaves unset); a model alone implies its provider by name, a provider alone its
 * balanced default (`getDefaultModel`); with neither, that of the first provider the environment configures.
 *
 * @example
 * resolveModel({ provider: 'openai' }, providers) // { model: 'gpt-5.2', provider: 'openai', source: 'node' }
 */
export function resolveModel(choice: ModelChoice, providers: readonly ProviderStatus[]): ResolvedModel {
  const model = choice.model?.trim() || undefined;
  const named = choice.provider?.trim() ? canonicalProvider(choice.provider) : undefined;
  if (model || named) {
    const provider = named ?? (model ? detectProvider(model) : undefined) ?? firstConfigured(providers);
    const resolvedModel = model ?? (provider ? getDefaultModel(provider)?.id : undefined);
    return {
      ...(resolvedModel ? { model: resolvedModel } : {}),
      ...(provider ? { provider } : {}),
      source: 'node',
    };
  }
  const provider = firstConfigured(providers);
  if (!provider) return { source: 'none' };
  const fallback = getDefaultModel(provider)?.id;
  return { ...(fallback ? { model: fallback } : {}), provider, source: 'environment' };
}

function firstConfigured(providers: readonly ProviderStatus[]): string | undefined {
  for (const name of PROVIDER_ORDER) {
    if (providers.find((p) => p.name === name)?.configured) return name;
  }
  return undefined;
}
