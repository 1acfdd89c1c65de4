import { getModelInfo } from './catalog.js';

const PREFIXES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^claude-/, 'anthropic'],
  [/^(gpt-|chatgpt-|codex-|o1(-|$)|o3(-|$)|o4-)/, 'openai'],
  [/^gemini-/, 'gemini'],
];

/**
 * The provider a model string belongs to: by the providers' naming prefixes, then by the catalog (aliases such
 * as `sonnet`). Undefined when nothing claims it; the client then uses its default provider.
 */
export function detectProvider(model: string): string | undefined {
  const name = model.trim().toLowerCase();
  for (const [pattern, provider] of PREFIXES) if (pattern.test(name)) return provider;
  return getModelInfo(name)?.provider;
}
