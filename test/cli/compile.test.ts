import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { ERROR_PIPELINE, tempPipelines, WARNING_PIPELINE } from './temp-pipelines.js';

const tmp = tempPipelines();
afterAll(() => tmp.cleanup());

const styled = tmp.write(
  'styled.dot',
  `digraph styled {
  graph [goal="Ship it", default_max_retry=2, default_max_visits=5, custom_flag="yes",
         model_stylesheet="* { llm_model: base-model; } .fast { llm_model: fast-model; }"]
  start [shape=Mdiamond]
  exit [shape=Msquare]
  subgraph cluster_x { label="Fast"; plan [prompt="Plan $goal", model="explicit-model"] }
  build [prompt="Build", max_retries=3, max_visits=3, goal_gate=true, retry_target="plan", owner="team-a"]
  tool [shape=parallelogram, tool_command="echo hi"]
  start -> plan -> build -> tool
  tool -> exit [condition="outcome=success", weight=2, note="extra"]
  tool -> build [condition="outcome=fail"]
}
`,
);
const warning = tmp.write('warning.dot', WARNING_PIPELINE);
const broken = tmp.write('broken.dot', ERROR_PIPELINE);

interface GraphJson {
  name: string;
  goal: string;
  attrs: Record<string, unknown>;
  nodes: Array<{ id: string; handler: string; attrs: Record<string, unknown> }>;
  edges: Array<{ source: string; target: string; attrs: Record<string, unknown> }>;
}

describe('attractor compile', () => {
  it('--format json (the default) prints the graph after transforms in the contract shape', async () => {
    const result = await runCli(['compile', styled]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(await runCli(['compile', styled, '--format', 'json'])).toEqual(result);

    const graph = JSON.parse(result.stdout) as GraphJson;
    expect(Object.keys(graph)).toEqual(['name', 'goal', 'params', 'attrs', 'nodes', 'edges']);
    expect(graph.name).toBe('styled');
    expect(graph.goal).toBe('Ship it');
    // Aliases are canonical, numbers typed, extras merged in.
    expect(graph.attrs).toMatchObject({ goal: 'Ship it', default_max_retries: 2, custom_flag: 'yes' });
    expect(graph.attrs).not.toHaveProperty('default_max_retry');

    for (const node of graph.nodes) expect(Object.keys(node)).toEqual(['id', 'handler', 'attrs']);
    for (const edge of graph.edges) expect(Object.keys(edge)).toEqual(['source', 'target', 'attrs']);
    const byId = new Map(graph.nodes.map((n) => [n.id, n]));
    expect(byId.get('start')?.handler).toBe('start');
    expect(byId.get('tool')?.handler).toBe('tool');
    expect(byId.get('build')).toMatchObject({
      handler: 'codergen',
      attrs: {
        max_retries: 3,
        goal_gate: true,
        retry_target: 'plan',
        owner: 'team-a',
        llm_model: 'base-model',
      },
    });
    // `model` is an alias; the explicit value beats the stylesheet; the subgraph label gives a class.
    expect(byId.get('plan')?.attrs).toMatchObject({ llm_model: 'explicit-model', prompt: 'Plan Ship it' });
    expect(String(byId.get('plan')?.attrs['class'])).toContain('fast');
    expect(byId.get('plan')?.attrs).not.toHaveProperty('model');

    expect(graph.edges.map((e) => `${e.source}->${e.target}`)).toEqual([
      'start->plan',
      'plan->build',
      'build->tool',
      'tool->exit',
      'tool->build',
    ]);
    expect(graph.edges[3]?.attrs).toEqual({ condition: 'outcome=success', weight: 2, note: 'extra' });
  });

  it('--format xstate prints a JSON machine config with one state per node', async () => {
    const result = await runCli(['compile', styled, '--format', 'xstate']);
    expect(result.code).toBe(0);
    const config = JSON.parse(result.stdout) as { states?: Record<string, unknown> };
    expect(typeof config).toBe('object');
    expect(result.stdout).toContain('build');
    expect(result.stdout).toContain('plan');
  });

  it('--format svg draws every node with the bundled Graphviz', async () => {
    const result = await runCli(['compile', styled, '--format', 'svg']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('<svg');
    for (const id of ['start', 'exit', 'plan', 'build', 'tool'])
      expect(result.stdout).toContain(`<title>${id}</title>`);
    // Shapes as authored: Mdiamond start, parallelogram tool.
    expect(result.stdout).toMatch(/<title>tool<\/title>\s*<polygon/);
  });

  it('warnings go to stderr and the output still follows', async () => {
    const result = await runCli(['compile', warning]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning goal_gate_has_retry: /);
    expect(JSON.parse(result.stdout)).toMatchObject({ name: 'warn' });
  });

  it.each(['json', 'xstate', 'svg'])(
    'errors stop --format %s: diagnostics on stderr, nothing on stdout, exit 1',
    async (format) => {
      const result = await runCli(['compile', broken, '--format', format]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/error terminal_node: /);
      expect(result.stderr).toMatch(/not compiled, \d+ errors?/);
    },
  );
});
