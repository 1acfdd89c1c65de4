/** One catalog entry. Prices are USD per million tokens; undefined means unknown (cost is then not computed). */
export interface ModelInfo {
  id: string;
  provider: string;
  displayName: string;
  contextWindow: number;
  maxOutputTokens: number;
  supportsTools: boolean;
  supportsStreaming: boolean;
  supportsVision: boolean;
  supportsReasoning: boolean;
  inputCostPerMillion?: number;
  outputCostPerMillion?: number;
  cacheReadCostPerMillion?: number;
  cacheWriteCostPerMillion?: number;
  /** ISO date the prices were recorded; prices change, so treat older ones with suspicion. */
  pricesAsOf?: string;
  aliases: string[];
  /** Set when the provider announced retirement; the client adds it to Response.warnings. */
  deprecated?: string;
  /**
   * True for models we know only from the SDK's model-name type: limits are copied from the family's documented
   * sibling and prices are left unknown.
   */
  unverified?: boolean;
}

export type ModelCapability = 'tools' | 'vision' | 'reasoning';
