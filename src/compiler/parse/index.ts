export { DotLimitError } from './dot-limit-error.js';
export { DotSyntaxError } from './dot-syntax-error.js';
export { type ParseDotOptions, type ParseResult, parseDot } from './parse-dot.js';
export { DEFAULT_PARSE_LIMITS, type ParseLimits, resolveParseLimits } from './parse-limits.js';
export { resolveHandler } from './resolve-handler.js';
export { subgraphClass } from './subgraph-class.js';
