import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ATTRIBUTE_ALIASES } from '../../src/compiler/attributes/attribute-aliases.js';
import { cursorContext } from '../../src/lsp/cursor-context.js';
import { outlineDot } from '../../src/lsp/dot-outline.js';
import { tokenizeDot } from '../../src/lsp/dot-tokens.js';
import { analyzePipeline } from '../../src/lsp/pipeline-document.js';
import { ROOT } from '../helpers/ensure-dist.js';

const ALIASES = Object.values(ATTRIBUTE_ALIASES).flatMap((aliases) => Object.entries(aliases));
const examples = readdirSync(path.join(ROOT, 'examples'))
  .filter((name) => name.endsWith('.dot'))
  .map((name) => readFileSync(path.join(ROOT, 'examples', name), 'utf8'));

describe('the editor reads any text without throwing', () => {
  it('tokens are in order, do not overlap and stay inside the text, for any prefix of an example', () => {
    fc.assert(
      fc.property(fc.constantFrom(...examples), fc.nat(), fc.string(), (example, cut, tail) => {
        const text = example.slice(0, cut % (example.length + 1)) + tail;
        const tokens = tokenizeDot(text);
        let previous = 0;
        for (const token of tokens) {
          expect(token.start).toBeGreaterThanOrEqual(previous);
          expect(token.end).toBeGreaterThan(token.start);
          expect(token.end).toBeLessThanOrEqual(text.length);
          previous = token.end;
        }
        outlineDot(tokens);
      }),
      { numRuns: 300 },
    );
  });

  it('every position of a half-typed example has a context, and analysis never throws', () => {
    fc.assert(
      fc.property(fc.constantFrom(...examples), fc.nat(), (example, cut) => {
        const text = example.slice(0, cut % (example.length + 1));
        const doc = analyzePipeline(text);
        for (let offset = Math.max(0, text.length - 40); offset <= text.length; offset++) {
          expect(['key', 'value', 'node', 'none']).toContain(cursorContext(doc, offset).kind);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('finds every node, and every attribute where the compiler located it, in the examples', () => {
    for (const example of examples) {
      const doc = analyzePipeline(example);
      const mentioned = new Set(doc.outline.mentions.map((m) => m.id));
      const lineStarts = [0, ...[...example.matchAll(/\n/g)].map((m) => (m.index ?? 0) + 1)];
      const sites = new Map(
        [...doc.outline.statements, ...doc.outline.lists.flatMap((l) => l.sites)].map((s) => [
          s.key.start,
          s,
        ]),
      );
      const located = [doc.graph, ...(doc.graph?.nodes ?? []), ...(doc.graph?.edges ?? [])];
      for (const node of doc.graph?.nodes ?? []) expect(mentioned, node.id).toContain(node.id);
      for (const [key, loc] of located.flatMap((owner) => Object.entries(owner?.attrLocs ?? {}))) {
        const offset = (lineStarts[loc.line - 1] ?? 0) + loc.column - 1;
        // The compiler keeps canonical names: `model=` is located as llm_model.
        const written = [
          key,
          ...ALIASES.filter(([, canonical]) => canonical === key).map(([alias]) => alias),
        ];
        expect(written, `${key} at ${loc.line}:${loc.column}`).toContain(sites.get(offset)?.key.value);
      }
    }
  });
});
