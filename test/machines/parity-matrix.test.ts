/**
 * A cross-feature matrix and an integration smoke test, each
 * cell one row, run through the real parser, validator, compiler and engine. Pipelines are ours.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CodergenBackend, CodergenRequest } from '../../src/actors/codergen-backend.js';
import { QueueInterviewer } from '../../src/actors/interviewers/queue.js';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { createSimulatedBackend } from '../../src/actors/simulated/simulated-backend.js';
import { loadPipeline } from '../../src/compiler/compile.js';
import { resumePipeline, startPipeline } from '../../src/run/engine.js';
import { readJson, runDot, tempDir } from '../helpers/run-helpers.js';

const errors = (source: string) => loadPipeline(source).diagnostics.filter((d) => d.severity === 'error');

describe('feature matrix: parse and validate (cells 1–6)', () => {
  it('1. parses a linear pipeline', () => {
    const { graph } = loadPipeline(
      'digraph p { start [shape=Mdiamond]; a; b; done [shape=Msquare]; start -> a -> b -> done }',
    );
    expect(graph.nodes.map((n) => n.id)).toEqual(['start', 'a', 'b', 'done']);
    expect(graph.edges.map((e) => `${e.source}->${e.target}`)).toEqual(['start->a', 'a->b', 'b->done']);
  });
  it('2. parses graph attributes', () => {
    const { graph } = loadPipeline(
      'digraph p { graph [goal="Tidy the docs", label="Docs"]; start [shape=Mdiamond]; done [shape=Msquare]; start -> done }',
    );
    expect(graph.attrs.goal).toBe('Tidy the docs');
    expect(graph.attrs.label).toBe('Docs');
  });
  it('3. parses multi-line node attributes', () => {
    const { graph } = loadPipeline(`digraph p {
      start [shape=Mdiamond]
      write [
        prompt="Write the changelog",
        max_retries=2
      ]
      done [shape=Msquare]
      start -> write -> done }`);
    const write = graph.nodes.find((n) => n.id === 'write');
    expect(write?.attrs).toMatchObject({ prompt: 'Write the changelog', max_retries: 2 });
  });
  it.each([
    ['4. missing start', 'digraph p { a [prompt="x"]; done [shape=Msquare]; a -> done }', 'start_node'],
    ['5. missing exit', 'digraph p { start [shape=Mdiamond]; a [prompt="x"]; start -> a }', 'terminal_node'],
    [
      '6. orphan node (an ERROR here: docs/semantics.md C5)',
      'digraph p { start [shape=Mdiamond]; lost [prompt="x"]; done [shape=Msquare]; start -> done }',
      'reachability',
    ],
  ])('%s is reported', (_name, source, rule) => {
    expect(errors(source).map((d) => d.rule)).toContain(rule);
  });
});

describe('feature matrix: execution (cells 7–22)', () => {
  it('7. runs a linear 3-node pipeline end to end', async () => {
    const run = await runDot(
      'digraph p { start [shape=Mdiamond]; a [prompt="a"]; done [shape=Msquare]; start -> a -> done }',
    );
    expect(run.visited).toEqual(['start', 'a', 'done']);
    expect(run.result.status).toBe('completed');
  });

  it.each([
    ['success', ['start', 'work', 'ok', 'done']],
    ['fail', ['start', 'work', 'recover', 'done']],
  ])('8. conditional branching on the %s path', async (outcome, visited) => {
    const run = await runDot(
      `digraph p { start [shape=Mdiamond]; work [prompt="w"]; ok [prompt="o"]; recover [prompt="r"]; done [shape=Msquare]
        start -> work; work -> ok [condition="outcome=success"]; work -> recover [condition="outcome=fail"]; ok -> done; recover -> done }`,
      { scenarioJson: { nodes: { work: [{ outcome }] } } },
    );
    expect(run.visited).toEqual(visited);
  });

  it('9. retries with max_retries=2', async () => {
    const run = await runDot(
      'digraph p { start [shape=Mdiamond]; flaky [prompt="f", max_retries=2, retry_policy=none]; done [shape=Msquare]; start -> flaky -> done }',
      {
        scenarioJson: {
          nodes: { flaky: [{ outcome: 'retry' }, { outcome: 'retry' }, { outcome: 'success' }] },
        },
      },
    );
    expect(run.visited.filter((v) => v === 'flaky')).toHaveLength(3);
    expect(run.result.status).toBe('completed');
  });

  const gate = `digraph p { start [shape=Mdiamond]; build [prompt="b", goal_gate=true, retry_target=build]; done [shape=Msquare]
    start -> build -> done; build -> done [condition="outcome=fail"] }`;
  it('10. a goal gate blocks exit when unsatisfied', async () => {
    const run = await runDot(gate, {
      scenarioJson: { nodes: { build: [{ outcome: 'fail' }, { outcome: 'success' }] } },
    });
    expect(run.visited).toEqual(['start', 'build', 'done', 'build', 'done']);
  });
  it('11. a goal gate allows exit when satisfied', async () => {
    const run = await runDot(gate);
    expect(run.visited).toEqual(['start', 'build', 'done']);
    expect(run.kinds).not.toContain('goal_gate.retry');
  });

  it('12. wait.human presents the choices and routes on the selection', async () => {
    const interviewer = new QueueInterviewer(['B']);
    const run = await runDot(
      `digraph p { start [shape=Mdiamond]; ask [shape=hexagon, label="Which?"]; a [prompt="a"]; b [prompt="b"]; done [shape=Msquare]
        start -> ask; ask -> a [label="[A] Alpha"]; ask -> b [label="[B] Beta"]; a -> done; b -> done }`,
      { interviewer },
    );
    expect(run.visited).toEqual(['start', 'ask', 'b', 'done']);
    expect(run.result.context['human.gate.selected']).toBe('B');
  });

  it.each([
    [
      '13. a condition match beats weight',
      'x -> heavy [weight=10]; x -> cond [condition="outcome=success"]',
      ['heavy', 'cond'],
      'cond',
    ],
    [
      '14. weight breaks ties among unconditional edges',
      'x -> light [weight=1]; x -> heavy [weight=5]',
      ['light', 'heavy'],
      'heavy',
    ],
    ['15. lexical order is the final tiebreak', 'x -> zed; x -> alpha', ['zed', 'alpha'], 'alpha'],
  ])('%s', async (_name, edges, targets, chosen) => {
    const run = await runDot(`digraph p { start [shape=Mdiamond]; x [prompt="x"]; done [shape=Msquare]
      ${targets.map((t) => `${t} [prompt="${t}"]; ${t} -> done`).join('; ')}
      start -> x; ${edges} }`);
    expect(run.visited[2]).toBe(chosen);
  });

  it('16. context updates from one node are visible to the next', async () => {
    const prompts: string[] = [];
    const backend: CodergenBackend = {
      name: 'recording',
      async run(request: CodergenRequest) {
        prompts.push(request.prompt);
        return { response: 'ok' };
      },
    };
    const run = await runDot(
      'digraph p { start [shape=Mdiamond]; decide [prompt="d"]; use [prompt="Build a {architecture}"]; done [shape=Msquare]; start -> decide -> use -> done }',
      {
        backend,
        scenarioJson: {
          nodes: { decide: [{ outcome: 'success', context_updates: { architecture: 'monolith' } }] },
        },
      },
    );
    expect(prompts).toContain('Build a monolith');
    expect(run.result.context['architecture']).toBe('monolith');
  });

  it('17. checkpoint save and resume give the same result as an uninterrupted run', async () => {
    const source = `digraph p { start [shape=Mdiamond]; a [prompt="a"]; b [prompt="b"]; c [prompt="c"]; done [shape=Msquare]
      start -> a -> b -> c -> done }`;
    const straight = await runDot(source);
    const runsRoot = tempDir();
    const run = startPipeline({
      backend: createSimulatedBackend(),
      source,
      runsRoot,
      durable: false,
      onEvent: (e) => {
        if (e.kind === 'node.complete' && e.node_id === 'b') run.pause();
      },
    });
    const paused = await run.result;
    expect(paused.status).toBe('paused');
    const resumed = await resumePipeline({
      backend: createSimulatedBackend(),
      from: paused.runDir,
      durable: false,
    }).result;
    expect(resumed.status).toBe(straight.result.status);
    expect(resumed.completedNodes).toEqual(straight.result.completedNodes);
    expect(resumed.stoppedAt).toBe(straight.result.stoppedAt);
  });

  it('18. the stylesheet applies a model override by shape', () => {
    const { graph } = loadPipeline(`digraph p { graph [model_stylesheet="box { llm_model: shape-model }"]
      start [shape=Mdiamond]; a [shape=box, prompt="a"]; done [shape=Msquare]; start -> a -> done }`);
    expect(graph.nodes.find((n) => n.id === 'a')?.attrs.llm_model).toBe('shape-model');
  });

  it('19. $goal expands in prompts', async () => {
    const run = await runDot(
      'digraph p { graph [goal="ship v2"]; start [shape=Mdiamond]; a [prompt="Do: $goal"]; done [shape=Msquare]; start -> a -> done }',
    );
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(run.result.runDir, 'a', 'prompt.md'), 'utf8')).toContain('Do: ship v2');
  });

  it('20. parallel fan-out and fan-in complete', async () => {
    const run =
      await runDot(`digraph p { start [shape=Mdiamond]; fan [shape=component]; x [prompt="x"]; y [prompt="y"]
      join [shape=tripleoctagon]; done [shape=Msquare]; start -> fan; fan -> x -> join; fan -> y -> join; join -> done }`);
    expect(run.visited).toEqual(['start', 'fan', 'join', 'done']);
    expect(run.result.status).toBe('completed');
  });

  it('21. a custom handler registers by type and runs', async () => {
    const registry = createDefaultRegistry().register('stamp', async ({ node }) => ({
      status: 'success',
      context_updates: { stamped: node.id },
    }));
    const run = await runDot(
      'digraph p { start [shape=Mdiamond]; s [type="stamp"]; done [shape=Msquare]; start -> s -> done }',
      { registry },
    );
    expect(run.result.context['stamped']).toBe('s');
  });

  it('22. a pipeline with 10+ nodes completes', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `step${i}`);
    const source = `digraph p { start [shape=Mdiamond]; done [shape=Msquare]; ${ids.map((id) => `${id} [prompt="${id}"]`).join('; ')}
      start -> ${ids.join(' -> ')} -> done }`;
    const run = await runDot(source);
    expect(run.visited).toHaveLength(14);
    expect(run.result.status).toBe('completed');
  });
});

describe('integration smoke test with a scripted backend', () => {
  const SMOKE = `digraph smoke {
    graph [goal="Print a greeting from a tiny script"]
    start     [shape=Mdiamond]
    plan      [shape=box, prompt="Outline the steps for: $goal"]
    implement [shape=box, prompt="Write the script from the outline", goal_gate=true]
    review    [shape=box, prompt="Check the script"]
    done      [shape=Msquare]
    start -> plan
    plan -> implement
    implement -> review [condition="outcome=success"]
    implement -> plan   [condition="outcome=fail", label="Retry"]
    review -> done      [condition="outcome=success"]
    review -> implement [condition="outcome=fail", label="Fix"]
  }`;

  it('parses, validates with only the expected warning, runs, and leaves the contract files', async () => {
    const loaded = loadPipeline(SMOKE);
    expect(loaded.graph.attrs.goal).toBe('Print a greeting from a tiny script');
    expect(loaded.graph.nodes).toHaveLength(5);
    expect(loaded.graph.edges).toHaveLength(6);
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(loaded.diagnostics.map((d) => d.rule)).toContain('goal_gate_has_retry');

    const calls: string[] = [];
    const backend: CodergenBackend = {
      name: 'scripted',
      async run(request) {
        calls.push(request.node.id);
        return { response: `scripted answer for ${request.node.id}` };
      },
    };
    const run = await runDot(SMOKE, { backend });
    expect(run.result.status).toBe('completed');
    expect(calls).toEqual(['plan', 'implement', 'review']);
    for (const id of ['plan', 'implement', 'review']) {
      for (const f of ['prompt.md', 'response.md', 'status.json']) {
        expect(existsSync(join(run.result.runDir, id, f)), `${id}/${f}`).toBe(true);
      }
    }
    const checkpoint = readJson(join(run.result.runDir, 'checkpoint.json'));
    expect(checkpoint['current_node']).toBe('done');
    expect(checkpoint['completed_nodes']).toEqual(expect.arrayContaining(['plan', 'implement', 'review']));
  });
});
