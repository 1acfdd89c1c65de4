import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/actors/simulated/scenario.js';
import { createSimulatedBackend } from '../../src/actors/simulated/simulated-backend.js';
import { resumePipeline, startPipeline } from '../../src/run/engine.js';
import { runDot, tempDir } from '../helpers/run-helpers.js';

/** The fix loop of docs/guides/pipelines.md: a test that always fails sends the run back to implement. */
const loop = (implementAttrs: string, graphAttrs = '', extra = '') => `digraph fix {
  graph [goal="g"${graphAttrs}]
  start [shape=Mdiamond]
  implement [prompt="Implement"${implementAttrs}]
  test [shape=parallelogram, tool_command="false"]
  exit [shape=Msquare]
  start -> implement -> test
  test -> exit [condition="outcome=success"]
  test -> implement [condition="outcome=fail", label="fix"]
  ${extra}
}`;
const ALWAYS_RED = { nodes: { test: [{ outcome: 'fail', failure_reason: 'tests red' }] } };

const ranImplement = (events: Awaited<ReturnType<typeof runDot>>['events']) =>
  events.filter(
    (e) => e.kind === 'node.complete' && e.node_id === 'implement' && e.data['status'] === 'success',
  ).length;

describe('max_visits bounds a loop through a conditional edge', () => {
  it.each([
    {
      name: 'node max_visits',
      attrs: ', max_visits=3',
      graph: '',
      limit: 3,
      why: '(max_visits=3) and was not run a 4th time',
    },
    {
      name: 'graph default_max_visits',
      attrs: '',
      graph: ', default_max_visits=2',
      limit: 2,
      why: '(default_max_visits=2) and was not run a 3rd time',
    },
    {
      name: 'node max_visits over the graph default',
      attrs: ', max_visits=4',
      graph: ', default_max_visits=2',
      limit: 4,
      why: '(max_visits=4) and was not run a 5th time',
    },
  ])(
    '$name: the handler runs $limit times, then entering fails the run with a clear reason',
    async ({ attrs, graph, limit, why }) => {
      const run = await runDot(loop(attrs, graph), { scenarioJson: ALWAYS_RED });
      expect(run.result.status).toBe('failed');
      expect(ranImplement(run.events)).toBe(limit);
      expect(run.result.failure).toEqual({
        node: 'implement',
        reason: `node "implement" reached its visit limit ${why}`,
      });
      expect(run.result.context[`internal.visit_count.implement`]).toBe(limit + 1);
      // The refused visit's status.json says FAIL, not the success of the last visit that ran.
      const status = JSON.parse(readFileSync(join(run.runDir, 'implement', 'status.json'), 'utf8'));
      expect(status).toMatchObject({ outcome: 'fail', failure_reason: run.result.failure?.reason });
    },
  );

  it('unset means unlimited: the same loop runs until the step limit', async () => {
    const run = await runDot(loop(''), { scenarioJson: ALWAYS_RED, maxSteps: 40 });
    expect(run.result.failure?.reason).toMatch(/step limit of 40/);
  });

  it('the visit-limit FAIL goes to fallback_retry_target (its own retry_target would be another visit)', async () => {
    const source = loop(
      ', max_visits=2, retry_target=implement, fallback_retry_target=escalate',
      '',
      'escalate [prompt="Ask a human"]\n  escalate -> exit',
    );
    const run = await runDot(source, { scenarioJson: ALWAYS_RED });
    expect(run.result.status).toBe('completed');
    expect(run.result.quality).toBe('degraded');
    expect(run.result.failedNodes).toEqual(['test', 'implement']);
    expect(run.visited.slice(-2)).toEqual(['escalate', 'exit']);
  });

  it('a retry_target pointing back at the node itself does not loop: the run fails at once', async () => {
    const run = await runDot(loop(', max_visits=2, retry_target=implement'), { scenarioJson: ALWAYS_RED });
    expect(run.result.status).toBe('failed');
    expect(run.result.failure?.reason).toMatch(/visit limit \(max_visits=2\)/);
    expect(run.visited.filter((id) => id === 'implement')).toHaveLength(3);
  });

  it('a fail edge can take over', async () => {
    const source = loop(
      ', max_visits=1',
      '',
      'implement -> report [condition="outcome=fail"]\n  report [prompt="Report"]\n  report -> exit',
    );
    const run = await runDot(source, { scenarioJson: ALWAYS_RED });
    expect(run.result.status).toBe('completed');
    expect(run.visited.slice(-2)).toEqual(['report', 'exit']);
  });

  it('retries within one visit do not count as visits', async () => {
    const source = `digraph r { start [shape=Mdiamond]; flaky [prompt="x", max_retries=3, max_visits=1]; exit [shape=Msquare]; start -> flaky -> exit }`;
    const run = await runDot(source, {
      scenarioJson: {
        nodes: { flaky: [{ outcome: 'retry' }, { outcome: 'retry' }, { outcome: 'success' }] },
      },
    });
    expect(run.result.status).toBe('completed');
    expect(run.result.context['internal.visit_count.flaky']).toBe(1);
  });

  it('resume keeps the visits counted before the interruption', async () => {
    const source = loop(', max_visits=3');
    const runsRoot = tempDir();
    const scenario = parseScenario(JSON.stringify(ALWAYS_RED));
    let implementStarts = 0;
    const run = startPipeline({
      backend: createSimulatedBackend(),
      source,
      runsRoot,
      durable: false,
      scenario,
      onEvent: (e) => {
        if (e.kind === 'node.start' && e.node_id === 'implement' && ++implementStarts === 2) run.pause();
      },
    });
    const paused = await run.result;
    expect(paused.status).toBe('paused');
    let ranAfter = 0;
    const resumed = await resumePipeline({
      backend: createSimulatedBackend(),
      from: paused.runDir,
      durable: false,
      scenario,
      onEvent: (e) => {
        if (e.kind === 'node.complete' && e.node_id === 'implement' && e.data['status'] === 'success')
          ranAfter++;
      },
    }).result;
    expect(resumed.status).toBe('failed');
    expect(resumed.failure?.reason).toMatch(/visit limit \(max_visits=3\) and was not run a 4th time/);
    expect(ranAfter).toBe(1);
  });

  it("the pipelines guide's example with a test that always fails: 5 implement runs, then the gate fails the run", async () => {
    const source = `digraph ship_feature {
      graph [goal="Add a /health endpoint"]
      start     [shape=Mdiamond]
      implement [prompt="Implement: $goal", goal_gate=true, retry_target=implement, max_retries=2,
                 max_visits=5, fallback_retry_target=review]
      test      [shape=parallelogram, tool_command="npm test", timeout="10m"]
      review    [shape=hexagon, label="Ship it?"]
      exit      [shape=Msquare]
      start -> implement -> test
      test -> review      [condition="outcome=success"]
      test -> implement   [condition="outcome=fail", label="fix"]
      review -> exit      [label="[A] Approve"]
      review -> implement [label="[R] Revise"]
    }`;
    const run = await runDot(source, { scenarioJson: { ...ALWAYS_RED, answers: { review: ['A'] } } });
    expect(run.result.status).toBe('failed');
    expect(ranImplement(run.events)).toBe(5);
    expect(run.result.failure?.reason).toBe(
      'goal gate implement did not succeed and has used all its visits (max_visits=5)',
    );
    expect(run.visited.length).toBeLessThan(20);
  });
});
