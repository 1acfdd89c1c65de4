import { describe, expect, it } from 'vitest';
import { resumePipeline } from '../../src/run/engine.js';
import { runDot } from '../helpers/run-helpers.js';

/** `check` has only a conditional edge: after a success with `ok` unset, no edge is eligible. */
const DEAD_END = (extra = '') => `digraph d {
  start [shape=Mdiamond]
  work [prompt="w"]
  check [prompt="c"]
  exit [shape=Msquare]
  start -> work -> check
  check -> exit [condition="context.ok=true"]
  ${extra}
}`;

describe('a run that ends where no edge matched (a dead end)', () => {
  it('completes (the ruling stands) but is degraded, with the reason in pipeline.finalize', async () => {
    const run = await runDot(DEAD_END());
    expect(run.result).toMatchObject({
      status: 'completed',
      quality: 'degraded',
      stoppedAt: 'check',
      deadEnd: { node: 'check', reason: 'ended at check: no edge matched' },
    });
    expect(run.kinds).toContain('pipeline.complete');
    expect(run.events.at(-1)).toMatchObject({
      kind: 'pipeline.finalize',
      data: { status: 'completed', quality: 'degraded', reason: 'ended at check: no edge matched' },
    });
  });

  it('a node with no outgoing edge says so', async () => {
    const run = await runDot(DEAD_END('work -> lone\n  lone [prompt="l"]'), {
      scenarioJson: { nodes: { work: [{ outcome: 'success', suggested_next_ids: ['lone'] }] } },
    });
    expect(run.visited).toEqual(['start', 'work', 'lone']);
    expect(run.result.deadEnd?.reason).toBe('ended at lone: it has no outgoing edge');
  });

  it('the same graph taking its edge to the exit is clean', async () => {
    const run = await runDot(DEAD_END(), {
      scenarioJson: { nodes: { check: [{ outcome: 'success', context_updates: { ok: 'true' } }] } },
    });
    expect(run.result).toMatchObject({ status: 'completed', quality: 'clean', stoppedAt: 'exit' });
    expect(run.result.deadEnd).toBeUndefined();
  });

  it('checks visited goal gates as an exit does: an unsatisfied one jumps to its retry target', async () => {
    const source = `digraph d {
      start [shape=Mdiamond]
      work [prompt="w", goal_gate=true, retry_target=work]
      check [prompt="c"]
      exit [shape=Msquare]
      start -> work
      work -> check [condition="outcome=fail || outcome=success"]
      check -> exit [condition="context.ok=true"]
    }`;
    const run = await runDot(source, {
      scenarioJson: { nodes: { work: [{ outcome: 'fail' }, { outcome: 'success' }] } },
    });
    expect(run.visited).toEqual(['start', 'work', 'check', 'work', 'check']);
    expect(run.events.find((e) => e.kind === 'goal_gate.retry')).toMatchObject({
      node_id: 'work',
      data: { target: 'work' },
    });
    // The gate was repaired; the run still ended at a dead end.
    expect(run.result).toMatchObject({
      status: 'completed',
      quality: 'degraded',
      stoppedAt: 'check',
      recoveredNodes: ['work'],
    });
  });

  it('checks visited goal gates as an exit does: an unsatisfied one with no retry target fails the run', async () => {
    const source = `digraph d {
      start [shape=Mdiamond]
      work [prompt="w", goal_gate=true]
      check [prompt="c"]
      exit [shape=Msquare]
      start -> work
      work -> check [condition="outcome=fail"]
      work -> exit [condition="outcome=success"]
      check -> exit [condition="context.ok=true"]
    }`;
    const run = await runDot(source, { scenarioJson: { nodes: { work: [{ outcome: 'fail' }] } } });
    expect(run.visited).toEqual(['start', 'work', 'check']);
    expect(run.result).toMatchObject({ status: 'failed', quality: 'failed', stoppedAt: 'check' });
    expect(run.result.failure?.reason).toBe('goal gate work did not succeed and no retry target is set');
  });

  it('a resume of the finished run reports the same quality and reason', async () => {
    const run = await runDot(DEAD_END());
    const again = await resumePipeline({ from: run.runDir }).result;
    expect(again).toMatchObject({
      alreadyFinished: true,
      quality: 'degraded',
      deadEnd: { node: 'check', reason: 'ended at check: no edge matched' },
    });
  });
});
