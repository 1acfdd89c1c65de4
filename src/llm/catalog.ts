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
