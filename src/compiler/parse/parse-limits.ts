/**
 * Safety caps of the DOT parser. They exist so a hostile or runaway file fails fast with a clear error
 * instead of exhausting memory or the call stack. Real pipelines stay far below every one of them.
 */
export interface ParseLimits {
  /** Largest accepted source, in UTF-8 bytes. Default 10 MB. */
  maxInputBytes: number;
  /** Most nodes in one graph (declared or implicit). Default 50,000. */
  maxNodes: number;
  /** Most edges after chains and `{a b}` groups are expanded. Default 200,000. */
  maxEdges: number;
  /**
   * Most `->` links in one edge statement. Default 2,000: the underlying parser recurses once per link
   * and overflows the call stack somewhere above 7,000.
   */
  maxEdgeChainLength: number;
  /** Deepest `{ ... }` nesting (graph body, subgraphs, groups). Default 100. */
  maxNestingDepth: number;
}

export const DEFAULT_PARSE_LIMITS: Readonly<ParseLimits> = Object.freeze({
  maxInputBytes: 10 * 1024 * 1024,
  maxNodes: 50_000,
  maxEdges: 200_000,
  maxEdgeChainLength: 2_000,
  maxNestingDepth: 100,
});

/** Defaults overlaid with the caller's values; a non-positive or non-finite value keeps the default. */
export function resolveParseLimits(overrides: Partial<ParseLimits> = {}): ParseLimits {
  const limits: ParseLimits = { ...DEFAULT_PARSE_LIMITS };
  for (const key of Object.keys(limits) as (keyof ParseLimits)[]) {
    const value = overrides[key];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) limits[key] = Math.floor(value);
  }
  return limits;
}
