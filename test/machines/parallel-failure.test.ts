import { describe, expect, it } from 'vitest';
import { runDot } from '../helpers/run-helpers.js';

/** Two branches that a scenario can fail, a fan-in `join`, and whatever routes the test adds. */
const FAN = (fanAttrs: string, routes: string) => `digraph p {
  start [shape=Mdiamond]
  fan [shape=component${fanAttrs}]
  a [prompt="A"]
  b [prompt="B"]
  join [shape=tripleoctagon]
  exit [shape=Msquare]
  start -> fan
  fan -> a
  fan -> b
  a -> join
  b -> join
  ${routes}
}`;

const FIX_EDGE =
  'join -> exit [condition="outcome=success"]\n  join -> fix [condition="outcome=fail"]\n  fix -> exit';

const BOTH_FAIL = { nodes: { a: [{ outcome: 'fail' }], b: [{ outcome: 'fail' }] } };

describe('a parallel node whose every branch fails', () => {
  it("continues at its fan-in, which fails in turn: the fan-in's fail edge fires", async () => {
    const source = FAN('', FIX_EDGE);
    const run = await runDot(source, { scenarioJson: BOTH_FAIL });
    expect(run.visited).toEqual(['start', 'fan', 'join', 'fix', 'exit']);
    expect(run.events.find((e) => e.kind === 'node.complete' && e.node_id === 'join')?.data).toMatchObject({
      status: 'fail',
      failure_reason: "the parallel node's join failed: every branch failed",
    });
    // The failures were routed around, not repaired.
    expect(run.result).toMatchObject({
      status: 'completed',
      quality: 'degraded',
      failedNodes: ['fan', 'join'],
    });
  });

  it('with no fail route at the fan-in, the run fails there, saying why', async () => {
    const run = await runDot(FAN('', 'join -> exit'), { scenarioJson: BOTH_FAIL });
    expect(run.visited).toEqual(['start', 'fan', 'join']);
    expect(run.result.status).toBe('failed');
    expect(run.result.failure).toEqual({
      node: 'join',
      reason: "the parallel node's join failed: every branch failed",
    });
  });

  it("the parallel node's own retry_target still takes its failure first", async () => {
    const source = FAN(', retry_target=again', `${FIX_EDGE}\n  again [prompt="Again"]\n  again -> exit`);
    const run = await runDot(source, { scenarioJson: BOTH_FAIL });
    expect(run.visited).toEqual(['start', 'fan', 'again', 'exit']);
  });

  it('a join that succeeds goes to the fan-in as before', async () => {
    const run = await runDot(FAN('', FIX_EDGE));
    expect(run.visited).toEqual(['start', 'fan', 'join', 'exit']);
    expect(run.result.quality).toBe('clean');
  });
});
