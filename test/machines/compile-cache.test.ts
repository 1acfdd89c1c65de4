import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PipelineGraph } from '../../src/compiler/ir.js';
import type { Transform } from '../../src/compiler/transforms/transform.js';
import type { LintRule } from '../../src/compiler/validate/lint-rule.js';
import { compileMachine } from '../../src/machines/compile-machine.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-compile-cache-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const source = (prompt: string) =>
  `digraph c {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  work [prompt="${prompt}"]\n  start -> work -> exit\n}\n`;
const promptOf = (graph: PipelineGraph) => graph.nodes.find((n) => n.id === 'work')?.attrs.prompt;

describe('compileMachine caches by everything that decides the result', () => {
  it('gives the same machine for the same source and options', () => {
    const text = source('Same every time.');
    expect(compileMachine(text).machine).toBe(compileMachine(text).machine);
    expect(compileMachine(text, { goal: 'other' }).machine).not.toBe(compileMachine(text).machine);
  });

  it('compiles afresh when an included file changed, and not before', () => {
    const file = path.join(dir, 'p.dot');
    fs.writeFileSync(path.join(dir, 'plan.md'), 'Plan version one.');
    const text = source('@plan.md');
    const first = compileMachine(text, { file });
    expect(promptOf(first.graph)).toBe('Plan version one.');
    expect(compileMachine(text, { file })).toBe(first);
    fs.writeFileSync(path.join(dir, 'plan.md'), 'Plan version two.');
    const second = compileMachine(text, { file });
    expect(second).not.toBe(first);
    expect(promptOf(second.graph)).toBe('Plan version two.');
  });

  it('keys on the transforms and rules a compilation was given', () => {
    const text = source('Shout this.');
    const shout: Transform = {
      name: 'shout',
      apply: (graph) => ({
        ...graph,
        nodes: graph.nodes.map((n) => ({
          ...n,
          attrs: { ...n.attrs, prompt: n.attrs.prompt?.toUpperCase() },
        })),
      }),
    };
    const plain = compileMachine(text);
    const shouted = compileMachine(text, { transforms: [shout] });
    expect(promptOf(plain.graph)).toBe('Shout this.');
    expect(promptOf(shouted.graph)).toBe('SHOUT THIS.');
    expect(compileMachine(text, { transforms: [shout] })).toBe(shouted);

    const noShouting: LintRule = {
      id: 'no_shouting',
      severity: 'warning',
      description: 'Prompts are not written in capitals.',
      check: (graph) =>
        graph.nodes
          .filter((n) => n.attrs.prompt === n.attrs.prompt?.toUpperCase() && n.attrs.prompt !== undefined)
          .map((n) => ({ rule: 'no_shouting', severity: 'warning', message: 'shouting', node_id: n.id })),
    };
    const linted = compileMachine(text, { transforms: [shout], rules: [noShouting] });
    expect(linted).not.toBe(shouted);
    expect(linted.diagnostics.map((d) => d.rule)).toContain('no_shouting');
    expect(compileMachine(text, { transforms: [shout] }).diagnostics.map((d) => d.rule)).not.toContain(
      'no_shouting',
    );
  });
});
