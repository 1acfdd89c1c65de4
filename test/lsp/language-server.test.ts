import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDist, ROOT } from '../helpers/ensure-dist.js';
import { tempDir } from '../helpers/temp-dir.js';
import { LspClient, type Position, type PublishedDiagnostic, positionOf } from './lsp-client.js';

interface CompletionItem {
  label: string;
  textEdit?: { newText: string };
}
interface TextEdit {
  range: { start: Position; end: Position };
  newText: string;
}

const dir = tempDir('attractor-lsp-');
const tourPath = path.join(dir, 'tour.dot');
const stylesPath = path.join(dir, 'stylesheet.dot');
const gatesPath = path.join(dir, 'goal-gate.dot');
const gatesUri = pathToFileURL(gatesPath).href;
const tourUri = pathToFileURL(tourPath).href;
const stylesUri = pathToFileURL(stylesPath).href;
copyFileSync(path.join(ROOT, 'examples', 'tour.dot'), tourPath);
copyFileSync(path.join(ROOT, 'examples', '02-stylesheet.dot'), stylesPath);
copyFileSync(path.join(ROOT, 'examples', '03-goal-gate.dot'), gatesPath);
mkdirSync(path.join(dir, 'prompts'));
writeFileSync(path.join(dir, 'prompts', 'plan.md'), 'Plan the work for $goal.\n');
const tour = readFileSync(tourPath, 'utf8');
const styles = readFileSync(stylesPath, 'utf8');
const gates = readFileSync(gatesPath, 'utf8');

/** `text` with the edits applied (they do not overlap). */
function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const offset = (p: Position) =>
    text
      .split('\n')
      .slice(0, p.line)
      .reduce((n, line) => n + line.length + 1, 0) + p.character;
  return [...edits]
    .sort((a, b) => offset(b.range.start) - offset(a.range.start))
    .reduce(
      (out, e) => out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end)),
      text,
    );
}

const labels = (items: CompletionItem[] | null) => (items ?? []).map((item) => item.label);

describe('attractor lsp, driven over stdio by a JSON-RPC client', () => {
  let client: LspClient;

  beforeAll(async () => {
    ensureDist();
    client = new LspClient(dir);
    const capabilities = await client.initialize(dir, { knownTypes: ['deploy'] });
    expect(capabilities).toMatchObject({ hoverProvider: true, definitionProvider: true });
    await client.open(tourUri, tour);
    await client.open(stylesUri, styles);
    await client.open(gatesUri, gates);
  }, 180_000);

  afterAll(async () => {
    expect(await client.close()).toBe(0);
  });

  it("publishes validate's diagnostics as you type, with a quick fix for a misspelt attribute", async () => {
    expect((await client.diagnostics(tourUri, 1)).filter((d) => d.severity === 1)).toEqual([]);
    const typo = tour.replace('max_retries=1', 'max_retires=1');
    await client.change(tourUri, 2, typo);
    const found = (await client.diagnostics(tourUri, 2)).filter((d) => d.code === 'attribute_unknown');
    expect(found).toHaveLength(1);
    const [diagnostic] = found as [PublishedDiagnostic];
    expect(diagnostic.message).toContain('did you mean "max_retries"');
    const at = positionOf(typo, 'max_retires');
    expect(diagnostic.range).toEqual({ start: at, end: { line: at.line, character: at.character + 11 } });

    const actions = await client.request<
      Array<{ title: string; edit: { changes: Record<string, TextEdit[]> } }>
    >('textDocument/codeAction', {
      textDocument: { uri: tourUri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    });
    expect(actions.map((a) => a.title)).toEqual(['Change "max_retires" to "max_retries"']);
    const fixed = applyEdits(typo, actions[0]?.edit.changes[tourUri] ?? []);
    expect(fixed).toBe(tour);
    await client.change(tourUri, 3, fixed);
    expect((await client.diagnostics(tourUri, 3)).filter((d) => d.code === 'attribute_unknown')).toEqual([]);
  });

  it('takes the handler types the project registers from initializationOptions', async () => {
    const custom = tour
      .replace('shape=parallelogram,', 'type="deploy",')
      .replace('checked [shape=diamond,', 'checked [type="deplyo",');
    await client.change(tourUri, 10, custom);
    const unknown = (await client.diagnostics(tourUri, 10)).filter((d) => d.code === 'type_known');
    expect(unknown.map((d) => d.message)).toEqual([
      expect.stringContaining('"deplyo", which is not a known handler (did you mean "deploy"?)'),
    ]);
    await client.change(tourUri, 11, tour);
    await client.diagnostics(tourUri, 11);
  });

  it('reports a syntax error at its place while the text does not parse', async () => {
    const broken = tour.replace('start -> plan', 'start -> -> plan');
    await client.change(tourUri, 4, broken);
    const [error] = await client.diagnostics(tourUri, 4);
    expect(error).toMatchObject({ code: 'dot_syntax', severity: 1 });
    expect(error?.range.start.line).toBe(positionOf(broken, '-> -> plan').line);
    await client.change(tourUri, 5, tour);
    await client.diagnostics(tourUri, 5);
  });

  it.each([
    [
      'attributes of a codergen node',
      'label="Plan",',
      14,
      ['llm_model', 'max_cost_usd', 'tool_hooks.pre', 'goal_gate'],
      // Already written (prompt, label) or not for this handler: not offered.
      ['prompt', 'label', 'tool_command', 'join_policy', 'xlabel'],
    ],
    [
      'attributes of a tool node',
      'label="Smoke test",',
      19,
      ['sandbox', 'sandbox_egress', 'timeout', 'env_passthrough'],
      ['prompt', 'llm_model', 'tool_command'],
    ],
    [
      'attributes of a gate',
      'approve [shape=hexagon,',
      23,
      ['human.timeout', 'human.default_choice'],
      ['tool_command'],
    ],
    ['shapes', 'shape=box,', 6, ['Mdiamond', 'hexagon', 'parallelogram'], []],
    ['node ids after an arrow', 'start -> plan', 9, ['plan', 'implement', 'smoke_test', 'done'], []],
    [
      'condition keys',
      'condition="outcome=fail"',
      11,
      ['outcome', 'preferred_label', 'context.tool.exit_code'],
      [],
    ],
    [
      'statuses after outcome=',
      'condition="outcome=fail"',
      19,
      ['success', 'fail', 'partial_success'],
      ['outcome'],
    ],
  ])('completes %s', async (_what, needle, offset, expected, unexpected) => {
    const items = await client.request<CompletionItem[] | null>('textDocument/completion', {
      textDocument: { uri: tourUri },
      position: positionOf(tour, needle, offset),
    });
    for (const label of expected) expect(labels(items)).toContain(label);
    for (const label of unexpected) expect(labels(items)).not.toContain(label);
  });

  it('completes handler types and catalog models while a value is typed', async () => {
    const typed = tour.replace(
      'shape=box,\n    label="Plan",',
      'shape=box,\n    label="Plan", llm_model=cl, type=',
    );
    await client.change(tourUri, 6, typed);
    const at = (needle: string, offset: number) =>
      client.request<CompletionItem[]>('textDocument/completion', {
        textDocument: { uri: tourUri },
        position: positionOf(typed, needle, offset),
      });
    expect(labels(await at('llm_model=cl', 12))).toContain('claude-sonnet-4-6');
    expect(labels(await at('type=', 5))).toEqual(expect.arrayContaining(['codergen', 'wait.human', 'tool']));
    await client.change(tourUri, 7, tour);
    await client.diagnostics(tourUri, 7);
  });

  it('completes stylesheet selectors outside a rule and properties inside one', async () => {
    const complete = (needle: string, offset: number) =>
      client.request<CompletionItem[]>('textDocument/completion', {
        textDocument: { uri: stylesUri },
        position: positionOf(styles, needle, offset),
      });
    expect(labels(await complete('.cheap {', 0))).toEqual(
      expect.arrayContaining(['*', '.cheap', '#polish', 'box']),
    );
    expect(labels(await complete('reasoning_effort: low', 0))).toEqual(
      expect.arrayContaining(['llm_model', 'reasoning_effort', 'temperature', 'fidelity']),
    );
  });

  it('hovers every attribute with its documentation from the table', async () => {
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri: tourUri },
      position: positionOf(tour, 'max_retries', 3),
    });
    expect(hover.contents.value).toContain('**max_retries** — node attribute, integer');
    expect(hover.contents.value).toContain('RETRY outcome');
    const edgeHover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri: tourUri },
      position: positionOf(tour, 'condition="tool.exit_code', 2),
    });
    expect(edgeHover.contents.value).toContain('edge attribute');
  });

  it("goes to a node's statement from an edge, and to the file of an @file prompt", async () => {
    const definition = await client.request<{ uri: string; range: { start: Position } }>(
      'textDocument/definition',
      {
        textDocument: { uri: tourUri },
        position: positionOf(tour, '-> smoke_test', 5),
      },
    );
    expect(definition).toEqual({
      uri: tourUri,
      range: { start: positionOf(tour, 'smoke_test ['), end: positionOf(tour, 'smoke_test [', 10) },
    });
    const withFile = tour.replace(
      'prompt="Read the goal: $goal. Write a short plan with at most five steps."',
      'prompt="@prompts/plan.md"',
    );
    await client.change(tourUri, 8, withFile);
    expect((await client.diagnostics(tourUri, 8)).filter((d) => d.severity === 1)).toEqual([]);
    const file = await client.request<{ uri: string }>('textDocument/definition', {
      textDocument: { uri: tourUri },
      position: positionOf(withFile, '@prompts/plan.md', 3),
    });
    expect(file.uri).toBe(pathToFileURL(path.join(dir, 'prompts', 'plan.md')).href);
    await client.change(tourUri, 9, tour);
    await client.diagnostics(tourUri, 9);
  });

  it('goes from a retry target to its node, and hovers a node id with what it is', async () => {
    const request = <T>(method: string, needle: string, offset: number) =>
      client.request<T>(method, {
        textDocument: { uri: gatesUri },
        position: positionOf(gates, needle, offset),
      });
    const target = await request<{ range: { start: Position } }>(
      'textDocument/definition',
      'retry_target="fix"',
      15,
    );
    expect(target.range.start).toEqual(positionOf(gates, 'fix      ['));
    const hover = await request<{ contents: { value: string } }>('textDocument/hover', '-> tests_pass', 4);
    expect(hover.contents.value).toContain('**tests_pass**: `codergen` node');
    expect(hover.contents.value).toContain('Run the tests and report whether they pass.');
  });

  it('offers graph attributes and node ids where a statement starts', async () => {
    const typed = gates.replace('  start [shape=Mdiamond]', '  def\n  start [shape=Mdiamond]');
    await client.change(gatesUri, 2, typed);
    const items = await client.request<CompletionItem[]>('textDocument/completion', {
      textDocument: { uri: gatesUri },
      position: positionOf(typed, '  def\n', 5),
    });
    expect(labels(items)).toEqual(
      expect.arrayContaining(['default_max_retries', 'default_fidelity', 'diagnose']),
    );
    await client.change(gatesUri, 3, gates);
    await client.diagnostics(gatesUri, 3);
  });

  it('renames a node id across the file, and refuses a name that is no id', async () => {
    const position = positionOf(tour, 'implement [');
    const prepared = await client.request<{ placeholder: string }>('textDocument/prepareRename', {
      textDocument: { uri: tourUri },
      position,
    });
    expect(prepared.placeholder).toBe('implement');
    const edit = await client.request<{ changes: Record<string, TextEdit[]> }>('textDocument/rename', {
      textDocument: { uri: tourUri },
      position,
      newName: 'build',
    });
    const renamed = applyEdits(tour, edit.changes[tourUri] ?? []);
    expect(renamed.match(/\bimplement\b/g)).toEqual(null);
    expect(renamed.match(/\bbuild\b/g)).toHaveLength(tour.match(/\bimplement\b/g)?.length ?? 0);
    expect(renamed).toContain('approve -> build [label="[R] Rework"]');
    await expect(
      client.request('textDocument/rename', {
        textDocument: { uri: tourUri },
        position,
        newName: 'not an id',
      }),
    ).rejects.toThrow(/not a node id/);
  });

  it('renames #id selectors of the stylesheet with the node', async () => {
    const edit = await client.request<{ changes: Record<string, TextEdit[]> }>('textDocument/rename', {
      textDocument: { uri: stylesUri },
      position: positionOf(styles, 'polish   ['),
      newName: 'finish',
    });
    const renamed = applyEdits(styles, edit.changes[stylesUri] ?? []);
    expect(renamed).toContain('#finish { llm_model: claude-opus-4-1');
    expect(renamed).toContain('finish   [prompt=');
    expect(renamed).toContain('-> finish ->');
    // The goal's words are no node id: "critique and polish a release note" stays.
    expect(renamed.match(/#polish|polish\s+\[|-> polish/g)).toEqual(null);
  });
});
