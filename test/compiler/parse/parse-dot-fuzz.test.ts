import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DotLimitError } from '../../../src/compiler/parse/dot-limit-error.js';
import { parseDot } from '../../../src/compiler/parse/parse-dot.js';
import { AttractorError } from '../../../src/shared/errors.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/dot');
const seeds = fs
  .readdirSync(fixtures)
  .filter((name) => name.endsWith('.dot'))
  .map((name) => fs.readFileSync(path.join(fixtures, name), 'utf8'));

/** parseDot's contract: a result, or an AttractorError with a location inside the input. Never anything else. */
function parsesOrFailsCleanly(source: string): void {
  try {
    const result = parseDot(source);
    expect(Array.isArray(result.graph.nodes)).toBe(true);
  } catch (error) {
    if (!AttractorError.isInstance(error)) throw error;
    expect(['DOT_SYNTAX', 'DOT_LIMIT']).toContain(error.code);
    expect(error.message.length).toBeGreaterThan(10);
    if (error.location) {
      const lines = source.split('\n').length;
      expect(error.location.line).toBeGreaterThanOrEqual(1);
      expect(error.location.line).toBeLessThanOrEqual(lines);
      expect(error.location.column).toBeGreaterThanOrEqual(1);
    }
  }
}

const TOKENS = [
  'digraph',
  'graph',
  'strict',
  'subgraph',
  'node',
  'edge',
  '{',
  '}',
  '[',
  ']',
  '=',
  ';',
  ',',
  '->',
  '--',
  '+',
  '"',
  '"x y"',
  '"a\\"b"',
  '\\',
  '<',
  '>',
  '<<b>x</b>>',
  '/*',
  '*/',
  '//',
  '#',
  '\n',
  '\r\n',
  ' ',
  'a',
  'b',
  'start',
  'shape',
  'Mdiamond',
  'label',
  'max_retries',
  'timeout',
  '15m',
  'weight',
  '2.5',
  '-1',
  'a.b',
  'x-y',
  ':',
  'é',
  '\u0000',
];

// Hundreds of parses a test: CPU-bound, so on a loaded machine it needs more than the default 20 s; the
// limit only guards against a hang.
describe('parseDot never fails with anything but an AttractorError', { timeout: 90_000 }, () => {
  it('on random strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), parsesOrFailsCleanly), {
      numRuns: 300,
    });
  });

  it('on random DOT-ish token soup', () => {
    const soup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }).map((tokens) => tokens.join(' '));
    const glued = fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }).map((tokens) => tokens.join(''));
    const framed = soup.map((body) => `digraph G { ${body} }`);
    fc.assert(fc.property(fc.oneof(soup, glued, framed), parsesOrFailsCleanly), { numRuns: 400 });
  });

  it('on mutated valid pipelines', () => {
    const mutation = fc.record({
      seed: fc.nat({ max: seeds.length - 1 }),
      at: fc.nat(),
      cut: fc.nat({ max: 12 }),
      insert: fc.oneof(fc.constantFrom(...TOKENS), fc.string({ maxLength: 4 })),
    });
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        let text = seeds[mutations[0]!.seed]!;
        for (const m of mutations) {
          const at = m.at % (text.length + 1);
          text = text.slice(0, at) + m.insert + text.slice(at + m.cut);
        }
        parsesOrFailsCleanly(text);
      }),
      { numRuns: 400 },
    );
  });

  it('on deep nesting, accepting what fits and refusing the rest with DOT_LIMIT', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom('subgraph { ', '{ ', 'a -> { '),
        (depth, open) => {
          const source = `digraph { ${open.repeat(depth)}x${' }'.repeat(depth)} }`;
          try {
            parseDot(source);
            expect(depth + 1).toBeLessThanOrEqual(100);
          } catch (error) {
            if (!AttractorError.isInstance(error)) throw error;
            if (depth + 1 > 100) expect(error).toBeInstanceOf(DotLimitError);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('on long chains: up to the cap they parse, beyond it DOT_LIMIT', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4000 }), (links) => {
        const chain = Array.from({ length: links + 1 }, (_, i) => `n${i}`).join(' -> ');
        const source = `digraph { ${chain} [label="x"] }`;
        if (links <= 2000) {
          expect(parseDot(source).graph.edges).toHaveLength(links);
        } else {
          expect(() => parseDot(source)).toThrow(DotLimitError);
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('parseDot on generated valid pipelines', { timeout: 90_000 }, () => {
  const id = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/);
  const text = fc.string({ maxLength: 30 });

  it('keeps every declared node and every edge, in order, with its values', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(id, { minLength: 1, maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), text), { maxLength: 20 }),
        text,
        (ids, edgeSpecs, prompt) => {
          const lines = ['digraph g {'];
          for (const nodeId of ids) lines.push(`  ${nodeId} [prompt=${JSON.stringify(prompt)}]`);
          const edges = edgeSpecs.map(
            ([s, t, label]) => [ids[s % ids.length]!, ids[t % ids.length]!, label] as const,
          );
          for (const [s, t, label] of edges) lines.push(`  ${s} -> ${t} [label=${JSON.stringify(label)}]`);
          lines.push('}');
          const { graph, diagnostics } = parseDot(lines.join('\n'));
          expect(diagnostics).toEqual([]);
          expect(graph.nodes.map((n) => n.id)).toEqual(ids);
          for (const node of graph.nodes) expect(node.attrs.prompt).toBe(prompt);
          expect(graph.edges.map((e) => [e.source, e.target, e.attrs.label])).toEqual(edges);
          expect(graph.edges.map((e) => e.index)).toEqual(edges.map((_, i) => i));
          graph.nodes.forEach((node, i) => {
            expect(node.loc).toEqual({ line: i + 2, column: 3 });
          });
        },
      ),
      { numRuns: 150 },
    );
  });
});
