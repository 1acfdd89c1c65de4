import { describe, expect, it } from 'vitest';
import { DotLimitError } from '../../../src/compiler/parse/dot-limit-error.js';
import { DotSyntaxError } from '../../../src/compiler/parse/dot-syntax-error.js';
import { type ParseDotOptions, parseDot } from '../../../src/compiler/parse/parse-dot.js';
import { AttractorError } from '../../../src/shared/errors.js';

function errorOf(source: string, options: ParseDotOptions = {}): DotSyntaxError {
  try {
    parseDot(source, options);
  } catch (error) {
    if (error instanceof DotSyntaxError) return error;
    throw error;
  }
  throw new Error('parseDot did not throw');
}

describe('parseDot: unreadable input throws one located DotSyntaxError', () => {
  it.each([
    ['empty file', '', 1, 1, ['empty']],
    ['only whitespace and comments', '  // nothing\n/* here */\n', 3, 1, ['empty']],
    ['undirected graph', 'graph G { a -- b }', 1, 1, ['undirected', 'digraph', '->']],
    ['strict digraph', '\nstrict digraph G { a -> b }', 2, 1, ['strict', 'parallel edges']],
    ['two graphs', 'digraph A { a }\ndigraph B { b }', 2, 1, ['exactly one']],
    ['text after the graph', 'digraph A { a } b', 1, 17, ['after the closing']],
    ['an extra closing brace', 'digraph A { a }\n}', 2, 1, ['no matching "{"']],
    ['a stray closing brace inside', 'digraph A {\n a }\n }', 3, 2, ['no matching']],
    ['an unclosed brace', 'digraph A {\n  subgraph s {\n    a\n}', 1, 11, ['never closed', '"}"']],
    ['not starting with digraph', 'diagraph A { a }', 1, 1, ['must start with "digraph', 'diagraph']],
    ['starting with a brace', '{ a }', 1, 1, ['must start with "digraph']],
    [
      'an unclosed "[" before the next node',
      'digraph p {\n  start [shape=Mdiamond\n  exit [shape=Msquare]\n  start -> exit\n}',
      2,
      9,
      ['"[" opened here is never closed', 'before line 3, column 8'],
    ],
    [
      'an unclosed "[" before an edge',
      'digraph p {\n  a [label="x"\n  a -> b\n}',
      2,
      5,
      ['"[" opened here is never closed', 'before line 4, column 1'],
    ],
    ['an unclosed "[" at the end', 'digraph p { a [label="x"', 1, 15, ['never closed', 'end of the file']],
    ['unterminated string', 'digraph {\n a [prompt="oops]\n}', 2, 12, ['never closed', 'closing "']],
    ['unterminated comment', 'digraph { a } /* left open', 1, 15, ['"*/"']],
    ['unterminated HTML id', 'digraph { a [label=<<b>x</b> }', 1, 20, ['">"']],
    ['undirected edge in a digraph', 'digraph {\n  a -- b\n}', 2, 5, ['"->"', '"--"']],
    ['edge with no target', 'digraph {\n  a ->\n}', 3, 1, ['Unexpected "}"', 'an id or a quoted string']],
    ['missing value', 'digraph { a [label=] }', 1, 20, ['Unexpected "]"', 'expected']],
    ['missing equals', 'digraph { a [label "x"] }', 1, 20, ['Unexpected', 'expected']],
    [
      'quoted id with a space',
      'digraph {\n  "my node" [shape=box]\n}',
      2,
      3,
      ['"my node"', 'not an identifier', 'label='],
    ],
    ['numeric id', 'digraph { a -> 42 }', 1, 16, ['"42"', 'not an identifier']],
    ['dotted id', 'digraph { a.b }', 1, 11, ['"a.b"', 'not an identifier']],
    ['binary garbage', 'PK\u0003\u0004\u0000\u0000\u0014\u0000digraph', 1, 5, ['not look like a text file']],
  ])('%s', (_name, source, line, column, fragments) => {
    const error = errorOf(source, { file: 'bad.dot' });
    expect(error.code).toBe('DOT_SYNTAX');
    expect(AttractorError.isInstance(error)).toBe(true);
    expect(error.location).toEqual({ file: 'bad.dot', line, column });
    for (const fragment of fragments) expect(error.message).toContain(fragment);
    expect(error.message).not.toMatch(/\n/);
    expect(error.describe()).toMatch(new RegExp(`^bad\\.dot:${line}:${column}: `));
  });

  it('points at the user text after multi-line strings and folded concatenations', () => {
    const source = 'digraph {\n  a [prompt="one\ntwo\nthree" + \n "four"]\n  b [label=]\n}';
    expect(errorOf(source).location).toEqual({ line: 6, column: 12 });
  });

  it('points at the user text after merged attribute lists and blanked comments', () => {
    const source = 'digraph {\n  a [x=1] /* c */ [y=2] // z\n  b -- c\n}';
    expect(errorOf(source).location).toEqual({ line: 3, column: 5 });
  });

  it('keeps the underlying error as cause', () => {
    expect(errorOf('digraph { a -> }').cause).toBeDefined();
  });
});

describe('parseDot: limits', () => {
  it.each([
    ['maxInputBytes', 'digraph { a -> b }', { maxInputBytes: 10 }, 1, 1],
    ['maxNodes', 'digraph {\n a; b;\n c }', { maxNodes: 2 }, 3, 2],
    ['maxEdges', 'digraph { a -> b; b -> c; c -> d }', { maxEdges: 2 }, 1, 27],
    ['maxEdges', 'digraph { a -> {b c d} }', { maxEdges: 2 }, 1, 11],
    ['maxEdgeChainLength', 'digraph { a -> b -> c -> d }', { maxEdgeChainLength: 2 }, 1, 13],
    ['maxNestingDepth', 'digraph { subgraph { subgraph { a } } }', { maxNestingDepth: 2 }, 1, 31],
  ] as const)('%s is enforced with a DOT_LIMIT error naming it', (limit, source, limits, line, column) => {
    const error = errorOf(source, { limits });
    expect(error).toBeInstanceOf(DotLimitError);
    expect(error.code).toBe('DOT_LIMIT');
    expect((error as DotLimitError).limit).toBe(limit);
    expect(error.message).toContain(`${limit}=`);
    expect(error.message).toContain(`limits: { ${limit}:`);
    expect(error.location).toMatchObject({ line, column });
  });

  it('lets a caller raise a limit', () => {
    expect(() =>
      parseDot('digraph { a -> b -> c -> d }', { limits: { maxEdgeChainLength: 3 } }),
    ).not.toThrow();
  });

  it('ignores non-positive limit overrides', () => {
    expect(
      parseDot('digraph { a -> b }', { limits: { maxNodes: 0, maxEdges: -1 } }).graph.edges,
    ).toHaveLength(1);
  });

  it('refuses a chain over the default cap without overflowing the stack', () => {
    const chain = Array.from({ length: 2500 }, (_, i) => `n${i}`).join(' -> ');
    const error = errorOf(`digraph { ${chain} }`);
    expect(error.code).toBe('DOT_LIMIT');
    expect((error as DotLimitError).limit).toBe('maxEdgeChainLength');
  });

  it('refuses deep nesting with a clear error', () => {
    const error = errorOf(`digraph { ${'subgraph { '.repeat(500)}a${' }'.repeat(500)} }`);
    expect((error as DotLimitError).limit).toBe('maxNestingDepth');
  });
});
