import { parse } from 'ts-graphviz/ast';
import type { Diagnostic } from '../diagnostic.js';
import type { PipelineGraph } from '../ir.js';
import { buildRawGraph } from './build-raw-graph.js';
import { DotLimitError } from './dot-limit-error.js';
import { DotSyntaxError } from './dot-syntax-error.js';
import { mapSyntaxError } from './map-syntax-error.js';
import { type ParseLimits, resolveParseLimits } from './parse-limits.js';
import { PositionMap } from './position-map.js';
import { prelexDot } from './prelex-dot.js';
import { typeRawGraph } from './type-raw-graph.js';

export interface ParseDotOptions {
  /** Path of the DOT file: put in every location and in `graph.file`. */
  file?: string;
  /** Overrides of {@link DEFAULT_PARSE_LIMITS}. */
  limits?: Partial<ParseLimits>;
}

export interface ParseResult {
  graph: PipelineGraph;
  /** Attribute typing problems (`attribute_type` warnings); the graph is usable regardless. */
  diagnostics: Diagnostic[];
}

/** AST nodes ts-graphviz may build per node/edge we allow: generous, so our own caps fire first. */
const AST_NODES_PER_ELEMENT = 32;

/**
 * Parses one DOT pipeline into the typed IR.
 *
 * Throws a single {@link DotSyntaxError} (code `DOT_SYNTAX`, or `DOT_LIMIT` for a {@link DotLimitError})
 * located in the user's file when the text cannot be read as one `digraph`; attribute values of the
 * wrong type are returned as diagnostics instead.
 *
 * @example
 * const { graph, diagnostics } = parseDot('digraph p { start [shape=Mdiamond]; start -> done }', { file: 'p.dot' });
 * graph.nodes.map((n) => n.id); // ['start', 'done']
 */
export function parseDot(source: string, options: ParseDotOptions = {}): ParseResult {
  const limits = resolveParseLimits(options.limits);
  const fileOption = options.file === undefined ? {} : { file: options.file };
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > limits.maxInputBytes) {
    throw new DotLimitError('maxInputBytes', limits.maxInputBytes, `The input size (${bytes} bytes)`, {
      location: { ...fileOption, line: 1, column: 1 },
    });
  }
  rejectBinary(source, options.file);
  const { text, map } = prelexDot(source, { ...fileOption, maxNestingDepth: limits.maxNestingDepth });
  let ast: ReturnType<typeof parse>;
  try {
    ast = parse(text, {
      maxASTNodes: (limits.maxNodes + limits.maxEdges) * AST_NODES_PER_ELEMENT,
      maxEdgeChainDepth: limits.maxEdgeChainLength,
      maxInputSize: 0,
      maxHtmlNestingDepth: limits.maxNestingDepth,
    });
  } catch (error) {
    throw mapSyntaxError(error, source, map, limits);
  }
  const raw = buildRawGraph(ast, text, map, limits);
  return typeRawGraph(raw, options.file);
}

/** A NUL, or many control characters early on, means this is not a text file at all. */
function rejectBinary(source: string, file: string | undefined): void {
  const head = source.slice(0, 4096);
  let control = 0;
  for (let i = 0; i < head.length; i++) {
    const code = head.charCodeAt(i);
    if (code === 0xfffd) control++;
    else if (code < 32 && code !== 9 && code !== 10 && code !== 13 && code !== 12) control++;
  }
  if (source.includes('\0') || control >= 8 || control * 20 > head.length) {
    const map = new PositionMap(source, file);
    const nul = source.indexOf('\0');
    throw new DotSyntaxError(
      'This does not look like a text file (it contains NUL or many control bytes): expected a DOT ' +
        'pipeline "digraph name { ... }" in UTF-8.',
      { location: map.locateSource(nul === -1 ? 0 : nul) },
    );
  }
}
