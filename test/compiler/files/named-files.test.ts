import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPipeline } from '../../../src/compiler/compile.js';
import { defaultReadScope, type ReadScope } from '../../../src/compiler/files/read-scope.js';

/**
 * A checkout: repo/pipelines/ holds the pipelines, repo/prompts/ shared prompts, and next to the
 * checkout a secret nothing may read.
 */
let top: string;
let repo: string;
let pipelines: string;
beforeAll(() => {
  top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-named-')));
  repo = path.join(top, 'repo');
  pipelines = path.join(repo, 'pipelines');
  fs.mkdirSync(path.join(repo, 'prompts'), { recursive: true });
  fs.mkdirSync(path.join(pipelines, 'children'), { recursive: true });
  fs.writeFileSync(path.join(top, 'secret'), 'TOP SECRET');
  fs.writeFileSync(path.join(repo, 'prompts', 'plan.md'), 'Plan it.');
  fs.writeFileSync(path.join(pipelines, 'children', 'child.dot'), 'digraph c { s [shape=Mdiamond] }');
  fs.symlinkSync(path.join(top, 'secret'), path.join(pipelines, 'innocent.md'));
  fs.symlinkSync(path.join(top, 'secret'), path.join(pipelines, 'innocent.dot'));
});
afterAll(() => fs.rmSync(top, { recursive: true, force: true }));

const pipeline = (body: string) =>
  `digraph p {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n${body}\n  start -> work -> exit\n}\n`;

function load(body: string, readScope?: ReadScope) {
  const file = path.join(pipelines, 'p.dot');
  return loadPipeline(pipeline(body), { file, ...(readScope ? { readScope } : {}) });
}

const errors = (diagnostics: ReturnType<typeof load>['diagnostics']) =>
  diagnostics.filter((d) => d.severity === 'error').map((d) => [d.rule, d.loc?.line, d.loc?.column]);

describe('files a pipeline names stay inside its read scope', () => {
  it.each([
    ['a prompt climbing out of the folders', '  work [prompt="@../../secret"]', 'file_not_allowed', 9],
    ['an absolute prompt path', '  work [prompt="@/etc/hostname"]', 'file_not_allowed', 9],
    ['a prompt linking out', '  work [prompt="@innocent.md"]', 'file_not_allowed', 9],
    ['a missing prompt', '  work [prompt="@prompts/x.md"]', 'prompt_file_missing', 9],
    ['a label used as the prompt, climbing out', '  work [label="@../../secret"]', 'file_not_allowed', 9],
    [
      'a child dotfile linking out',
      '  work [shape=house, stack.child_dotfile="innocent.dot"]',
      'file_not_allowed',
      22,
    ],
    [
      'a missing child dotfile',
      '  work [shape=house, stack.child_dotfile="children/none.dot"]',
      'child_dotfile_missing',
      22,
    ],
    [
      'a child dotfile that is a folder',
      '  work [shape=house, stack.child_dotfile="children"]',
      'child_dotfile_missing',
      22,
    ],
  ])('%s is an error at the attribute', (_what, body, rule, column) => {
    const { graph, diagnostics } = load(body);
    expect(errors(diagnostics)).toEqual([[rule, 4, column]]);
    // Nothing of the secret reaches the graph.
    expect(JSON.stringify(graph)).not.toContain('TOP SECRET');
  });

  it('a named file inside the scope is fine, and so is ../ within the working directory', () => {
    const { graph, diagnostics } = load(
      '  work [prompt="@../prompts/plan.md"]',
      defaultReadScope(path.join(pipelines, 'p.dot'), repo),
    );
    expect(errors(diagnostics)).toEqual([]);
    expect(graph.nodes.find((n) => n.id === 'work')?.attrs.prompt).toBe('Plan it.');
    const child = load('  work [shape=house, stack.child_dotfile="children/child.dot"]');
    expect(errors(child.diagnostics)).toEqual([]);
  });

  it('a graph-level child dotfile is located at the graph attribute; an observing manager reads none', () => {
    const graphLevel = load('  stack.child_dotfile="../../secret"\n  work [shape=house]');
    expect(errors(graphLevel.diagnostics)).toEqual([['file_not_allowed', 4, 3]]);
    const observing = load(
      '  stack.child_dotfile="../../secret"\n  work [shape=house, stack.child_autostart=false]',
    );
    expect(errors(observing.diagnostics)).toEqual([]);
  });

  it('the graph keeps its scope, and the message says how to widen it', () => {
    const scope: ReadScope = {
      base: pipelines,
      roots: [pipelines],
      described: 'the pipeline folder',
      widen: 'pass --allow-read DIR',
    };
    const { graph, diagnostics } = load('  work [prompt="@../prompts/plan.md"]', scope);
    expect(graph.readScope).toEqual(scope);
    expect(diagnostics[0]).toMatchObject({
      rule: 'file_not_allowed',
      node_id: 'work',
      fix: expect.stringContaining('pass --allow-read DIR'),
    });
    expect(diagnostics[0]?.message).toMatch(/names "..\/prompts\/plan.md", which is not allowed/);
  });
});
