import { definedFields } from '../../shared/defined-fields.js';
import { DotLimitError } from './dot-limit-error.js';
import { DotSyntaxError } from './dot-syntax-error.js';
import type { ParseLimits } from './parse-limits.js';
import type { PositionMap } from './position-map.js';

interface PegExpectation {
  type: string;
  text?: string;
  description?: string;
}

interface PegErrorShape {
  message?: string;
  expected?: PegExpectation[] | null;
  found?: string | null;
  location?: { start: { offset: number } };
}

const ID_LIKE = new Set(['"', '<', 'NUMBER', 'UNICODE_STRING']);
const COMMENT_OPENERS = new Set(['#', '/*', '//']);

/**
 * Turns whatever ts-graphviz threw into one DotSyntaxError located in the user's file, saying what was
 * expected in pipeline terms. ts-graphviz puts the position on `err.cause.location` (docs/semantics.md).
 */
export function mapSyntaxError(
  error: unknown,
  source: string,
  map: PositionMap,
  limits: ParseLimits,
): DotSyntaxError {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const peg = (typeof cause === 'object' && cause !== null ? cause : {}) as PegErrorShape;
  const outOffset = peg.location?.start.offset;
  const srcOffset = outOffset === undefined ? undefined : map.toSourceOffset(outOffset);
  const location = srcOffset === undefined ? undefined : map.locateSource(srcOffset);
  const options = { cause: error, ...definedFields({ location }) };
  const message = peg.message ?? (error instanceof Error ? error.message : String(error));

  if (cause instanceof RangeError || /call stack/i.test(message)) {
    return new DotLimitError(
      'maxEdgeChainLength',
      limits.maxEdgeChainLength,
      'The input nests or chains so deeply that the parser ran out of stack; this',
      options,
    );
  }
  if (/Edge chain depth exceeds/.test(message)) {
    return new DotLimitError(
      'maxEdgeChainLength',
      limits.maxEdgeChainLength,
      'An edge chain longer than allowed',
      options,
    );
  }
  if (/AST node count/.test(message)) {
    return new DotLimitError(
      'maxNodes',
      limits.maxNodes,
      'The number of statements and attributes (derived from maxNodes and maxEdges)',
      options,
    );
  }
  if (/necessary to describe with "->"/.test(message)) {
    return new DotSyntaxError('Edges in a digraph are written with "->", not "--".', options);
  }
  if (/HTML nesting depth/.test(message)) {
    return new DotSyntaxError('This HTML-like "<...>" value is nested too deeply to read.', options);
  }
  if (!peg.location) {
    return new DotSyntaxError(`The DOT text could not be read: ${message}`, options);
  }
  const found =
    srcOffset === undefined || srcOffset >= source.length ? undefined : snippet(source, srcOffset);
  const unexpected = found === undefined ? 'Unexpected end of file' : `Unexpected ${JSON.stringify(found)}`;
  return new DotSyntaxError(`${unexpected}: expected ${describeExpected(peg.expected ?? [])}.`, options);
}

function snippet(source: string, offset: number): string {
  const match = /^(?:[A-Za-z0-9_.\-\u0080-\uffff]{1,20}|[\s\S])/.exec(source.slice(offset, offset + 20));
  return match?.[0] ?? '';
}

function describeExpected(expected: readonly PegExpectation[]): string {
  const parts: string[] = [];
  let idLike = false;
  for (const item of expected) {
    if (item.type === 'end') {
      parts.push('the end of the file');
      continue;
    }
    const text = item.type === 'literal' ? item.text : item.description;
    if (text === undefined || COMMENT_OPENERS.has(text)) continue;
    if (ID_LIKE.has(text)) {
      idLike = true;
      continue;
    }
    parts.push(text === 'port' ? 'a ":port"' : JSON.stringify(text));
  }
  if (idLike) parts.unshift('an id or a quoted string');
  const unique = [...new Set(parts)];
  if (unique.length === 0) return 'valid DOT';
  if (unique.length === 1) return unique[0]!;
  return `${unique.slice(0, -1).join(', ')} or ${unique.at(-1)}`;
}
