import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PipelineGraph } from '../../../src/compiler/ir.js';
import { applyTransforms, expandGoal, type Transform } from '../../../src/compiler/transforms/index.js';
import { AttractorError } from '../../../src/shared/errors.js';
import { buildGraph, nodeOf } from '../../helpers/ir-builder.js';

describe('expandGoal — whole word only', () => {
  it.each([
    ['Do $goal now', 'Do X now'],
    ['$goal', 'X'],
    ['$goal.', 'X.'],
    ['($goal)', '(X)'],
    ['$goal_x stays', '$goal_x stays'],
    ['$goals stays', '$goals stays'],
    ['$goal2 stays', '$goal2 stays'],
    ['$goal-and-more', 'X-and-more'],
    ['a $goal and $goal', 'a X and X'],
    ['no variable', 'no variable'],
  ])('%j → %j', (text, expected) => {
    expect(expandGoal(text, 'X')).toBe(expected);
  });

  it('does not interpret $ patterns inside the goal', () => {
    expect(expandGoal('[$goal]', "cost $& and $1'")).toBe("[cost $& and $1']");
  });
});

describe('applyTransforms — $goal', () => {
  const graph = buildGraph({
    attrs: { goal: 'Build a CLI' },
    nodes: { a: { prompt: 'Plan: $goal', label: 'Goal $goal' }, b: { prompt: 'Keep $goal_x' }, c: {} },
  });

  it('expands prompts and labels from the graph goal without touching the input', () => {
    const { graph: out, diagnostics } = applyTransforms(graph);
    expect(nodeOf(out, 'a').attrs).toMatchObject({ prompt: 'Plan: Build a CLI', label: 'Goal Build a CLI' });
    expect(nodeOf(out, 'b').attrs.prompt).toBe('Keep $goal_x');
    expect(nodeOf(graph, 'a').attrs.prompt).toBe('Plan: $goal');
    expect(diagnostics).toEqual([]);
  });

  it('the goal option overrides the graph goal, also in graph.attrs', () => {
    const { graph: out } = applyTransforms(graph, { goal: 'Fix the bug' });
    expect(nodeOf(out, 'a').attrs.prompt).toBe('Plan: Fix the bug');
    expect(out.attrs.goal).toBe('Fix the bug');
  });

  it('no goal at all expands to the empty string', () => {
    const { graph: out } = applyTransforms(buildGraph({ nodes: { a: { prompt: 'x $goal y' } } }));
    expect(nodeOf(out, 'a').attrs.prompt).toBe('x  y');
  });
});

describe('applyTransforms — tool commands are left as written', () => {
  it('neither $goal nor a declared parameter is pasted into a tool_command (the shell reads them from its environment)', () => {
    const graph = buildGraph({
      attrs: { goal: "x'; rm -rf ~; '", vars: 'feature' },
      nodes: { t: { shape: 'parallelogram', tool_command: 'echo $goal $feature', prompt: 'Do $feature' } },
    });
    const { graph: out } = applyTransforms(graph, { vars: { feature: "'; rm -rf ~; '" } });
    expect(nodeOf(out, 't').attrs.tool_command).toBe('echo $goal $feature');
    expect(nodeOf(out, 't').attrs.prompt).toBe("Do '; rm -rf ~; '");
  });
});

describe('applyTransforms — @file prompts', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  function tempPipeline(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-transforms-'));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, 'prompts'));
    fs.writeFileSync(path.join(dir, 'prompts', 'plan.md'), 'Write a plan for $goal.\n');
    return path.join(dir, 'pipeline.dot');
  }

  it('loads the file relative to the DOT file and expands $goal in it', () => {
    const file = tempPipeline();
    const graph = buildGraph({ file, attrs: { goal: 'G' }, nodes: { plan: { prompt: '@prompts/plan.md' } } });
    const { graph: out, diagnostics } = applyTransforms(graph);
    expect(nodeOf(out, 'plan').attrs.prompt).toBe('Write a plan for G.\n');
    expect(diagnostics).toEqual([]);
  });

  it('a missing file is a prompt_file_missing error at the prompt and the prompt stays as written', () => {
    const file = tempPipeline();
    const graph = buildGraph({ file, nodes: { review: { prompt: '@prompts/missing.md' } } });
    const { graph: out, diagnostics } = applyTransforms(graph);
    expect(nodeOf(out, 'review').attrs.prompt).toBe('@prompts/missing.md');
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      rule: 'prompt_file_missing',
      severity: 'error',
      node_id: 'review',
      loc: nodeOf(graph, 'review').attrLocs['prompt'],
    });
    expect(diagnostics[0]?.message).toContain(path.join(path.dirname(file), 'prompts', 'missing.md'));
  });

  it('only a prompt that is exactly one @path token is an include', () => {
    const reads: string[] = [];
    const readFile = (p: string) => {
      reads.push(p);
      return { ok: true as const, path: p, text: 'content' };
    };
    const graph = buildGraph({
      file: '/virtual/dir/p.dot',
      nodes: {
        a: { prompt: 'email me @ home' },
        b: { prompt: 'see @notes.md' },
        c: { prompt: '  @x/y.md  ' },
      },
    });
    const { graph: out } = applyTransforms(graph, { readFile });
    expect(nodeOf(out, 'a').attrs.prompt).toBe('email me @ home');
    expect(nodeOf(out, 'b').attrs.prompt).toBe('see @notes.md');
    expect(nodeOf(out, 'c').attrs.prompt).toBe('content');
    expect(reads).toEqual([path.resolve('/virtual/dir/x/y.md')]);
  });

  // A device or FIFO never ends (`@/dev/zero` used to hang validate until memory ran out), a folder is
  // not a prompt: each is an error, and nothing outside the pipeline's folders is even looked at.
  it.each([
    ['an absolute path (a device that never ends)', '@/dev/zero', 'file_not_allowed'],
    ['a climb out of the folder', '@../../../../../../etc/hostname', 'file_not_allowed'],
    ['a directory', '@prompts', 'prompt_file_missing'],
  ])('%s is an error, not a hang', (_what, prompt, rule) => {
    const file = tempPipeline();
    const graph = buildGraph({ file, nodes: { review: { prompt } } });
    const { graph: out, diagnostics } = applyTransforms(graph);
    expect(nodeOf(out, 'review').attrs.prompt).toBe(prompt);
    expect(diagnostics.map((d) => [d.rule, d.severity])).toEqual([[rule, 'error']]);
  });

  it('a prompt file over 10 MB is a prompt_file_missing error naming the size limit', () => {
    const file = tempPipeline();
    fs.writeFileSync(
      path.join(path.dirname(file), 'prompts', 'huge.md'),
      Buffer.alloc(10 * 1024 * 1024 + 1, 97),
    );
    const graph = buildGraph({ file, nodes: { review: { prompt: '@prompts/huge.md' } } });
    const { graph: out, diagnostics } = applyTransforms(graph);
    expect(nodeOf(out, 'review').attrs.prompt).toBe('@prompts/huge.md');
    expect(diagnostics.map((d) => d.rule)).toEqual(['prompt_file_missing']);
    expect(diagnostics[0]?.message).toMatch(/10 MB/);
  });
});

describe('applyTransforms — stylesheet and custom transforms', () => {
  it('applies the model_stylesheet', () => {
    const graph = buildGraph({ attrs: { model_stylesheet: 'box { llm_model: m1 }' }, nodes: { a: {} } });
    expect(nodeOf(applyTransforms(graph).graph, 'a').attrs.llm_model).toBe('m1');
  });

  it('skips a stylesheet that does not parse, without throwing or adding diagnostics', () => {
    const graph = buildGraph({ attrs: { model_stylesheet: '* { nope }' }, nodes: { a: {} } });
    const { graph: out, diagnostics } = applyTransforms(graph);
    expect(nodeOf(out, 'a').attrs.llm_model).toBeUndefined();
    expect(diagnostics).toEqual([]);
  });

  it("runs the caller's transforms after the built-ins, in order, for that call only", () => {
    const seen: string[] = [];
    const tag =
      (name: string): Transform['apply'] =>
      (graph: PipelineGraph) => {
        seen.push(`${name}:${graph.nodes[0]?.attrs.prompt}`);
        return {
          ...graph,
          nodes: graph.nodes.map((n) => ({
            ...n,
            attrs: { ...n.attrs, prompt: `${n.attrs.prompt}+${name}` },
          })),
        };
      };
    const graph = buildGraph({ attrs: { goal: 'G' }, nodes: { a: { prompt: '$goal' } } });
    const transforms = ['one', 'two', 'three'].map((name) => ({ name, apply: tag(name) }));
    const { graph: out } = applyTransforms(graph, { transforms });
    expect(seen).toEqual(['one:G', 'two:G+one', 'three:G+one+two']);
    expect(nodeOf(out, 'a').attrs.prompt).toBe('G+one+two+three');
    seen.length = 0;
    applyTransforms(buildGraph({ nodes: { a: {} } }));
    expect(seen).toEqual([]);
  });

  it('a custom transform can add nodes and edges', () => {
    const addReview: Transform = {
      name: 'add-review',
      apply: (graph) => ({
        ...graph,
        nodes: [
          ...graph.nodes,
          { ...(graph.nodes[0] as PipelineGraph['nodes'][number]), id: 'review', attrs: {} },
        ],
      }),
    };
    const { graph: out } = applyTransforms(buildGraph({ nodes: { a: {} } }), { transforms: [addReview] });
    expect(out.nodes.map((n) => n.id)).toEqual(['a', 'review']);
  });

  it('a transform that throws is reported by name', () => {
    const broken: Transform = {
      name: 'broken',
      apply: () => {
        throw new Error('oops');
      },
    };
    expect(() => applyTransforms(buildGraph({}), { transforms: [broken] })).toThrow(
      expect.objectContaining({ code: 'TRANSFORM_FAILED', message: 'transform "broken" failed: oops' }),
    );
    try {
      applyTransforms(buildGraph({}), { transforms: [broken] });
    } catch (error) {
      expect(AttractorError.isInstance(error)).toBe(true);
    }
  });
});
