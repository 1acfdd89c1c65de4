import { MODEL_CATALOG } from './catalog-data.js';
import type { ModelCapability, ModelInfo } from './model-info.js';

let index: Map<string, ModelInfo> | undefined;

function byName(): Map<string, ModelInfo> {
  if (!index) {
    index = new Map();
    for (const model of MODEL_CATALOG) {
      index.set(model.id, model);
      for (const alias of model.aliases) if (!index.has(alias)) index.set(alias, model);
    }
  }
  return index;
}

/** A model by id or alias (case-insensitive); undefined when unknown. The catalog is advisory. */
export function getModelInfo(modelId: string): ModelInfo | undefined {
  return byName().get(modelId.trim().toLowerCase());
}

/** All known models, optionally of one provider, in catalog order. */
export function listModels(provider?: string): ModelInfo[] {
  return MODEL_CATALOG.filter((model) => provider === undefined || model.provider === provider);
}

/** The provider's first listed model, optionally having a capability. */
export function getLatestModel(provider: string, capability?: ModelCapability): ModelInfo | undefined {
  return listModels(provider).find((model) => {
    if (capability === 'tools') return model.supportsTools;
    if (capability === 'vision') return model.supportsVision;
    if (capability === 'reasoning') return model.supportsReasoning;
    return true;
  });
}

/**
 * Each provider's balanced model: what a node uses when nothing names one. The middle of the
 * provider's range and priced in the catalog, never its most expensive model, so a run started with
 * only a key costs what a user expects and a budget can count it (decision 0029).
 */
const BALANCED_MODELS: Readonly<Record<string, string>> = {
  anthropic: 'claude-sonnet-4-6',
  openai: 'gpt-5.2',
  gemini: 'gemini-2.5-pro',
};

/** The model a node of `provider` uses when nothing names one: its balanced model, else its latest with tools. */
export function getDefaultModel(provider: string): ModelInfo | undefined {
  const balanced = BALANCED_MODELS[provider];
  return (balanced ? getModelInfo(balanced) : undefined) ?? getLatestModel(provider, 'tools');
}

/** True when the catalog prices `model`'s input and output, so its calls can be counted against a budget. */
export function isPriced(model: string): boolean {
  const info = getModelInfo(model);
  return info?.inputCostPerMillion !== undefined && info.outputCostPerMillion !== undefined;
}
