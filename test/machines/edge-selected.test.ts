import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { eventsOf, readEvents, runDot } from '../helpers/run-helpers.js';

describe('edge.selected: the engine reports each routing decision', () => {
  it('names the step that chose each edge, and the attribute behind each jump', async () => {
    const visits = new Map<string, number>();
    const registry = createDefaultRegistry().register('scripted', async ({ node }) => {
      const visit = (visits.get(node.id) ?? 0) + 1;
      visits.set(node.id, visit);
      if (node.id === 'a') return { status: 'success', preferred_label: 'go' };
      if (node.id === 'b' && visit === 1) return { status: 'fail', failure_reason: 'red' };
      if (node.id === 'd') return { status: 'fail', failure_reason: 'hopeless' };
      return { status: 'success' };
    });
    const run = await runDot(
      `digraph routes {
        start [shape=Mdiamond]
        a [type="scripted"]
        b [type="scripted"]
        fixer [type="scripted"]
        c [type="scripted"]
        d [type="scripted", retry_target="e"]
        e [type="scripted"]
        exit [shape=Msquare]
        start -> a
        a -> b [label="[G] Go"]
        a -> c [label="Stop"]
        b -> fixer [condition="outcome=fail"]
        b -> d [condition="outcome=success"]
        fixer -> b
        d -> exit [condition="outcome=success"]
        e -> exit
      }`,
      { registry },
    );
    expect(run.result.status).toBe('completed');
    const decisions = run.events
      .filter((e) => e.kind === 'edge.selected')
      .map((e) => [e.data['from'], e.data['to'], e.data['step']]);
    expect(decisions).toEqual([
      ['start', 'a', 'weight'],
      ['a', 'b', 'preferred_label'],
      ['b', 'fixer', 'condition'],
      ['fixer', 'b', 'weight'],
      ['b', 'd', 'condition'],
      ['d', 'e', 'retry_target'],
      ['e', 'exit', 'weight'],
    ]);
    const viaLabel = run.events.find((e) => e.kind === 'edge.selected' && e.data['from'] === 'a');
    expect(viaLabel?.node_id).toBe('a');
    expect(viaLabel?.data).toMatchObject({ label: '[G] Go', edge_index: 1 });
    const jump = eventsOf(run.events, 'edge.selected').find((e) => e.data.from === 'd');
    expect(jump?.data.jump).toBe(true);
    const failEdge = eventsOf(run.events, 'edge.selected').find(
      (e) => e.data.from === 'b' && e.data.to === 'fixer',
    );
    expect(failEdge?.data.condition).toBe('outcome=fail');
    // Decided after the node completed and before the next one starts; the log holds the same.
    const kinds = run.kinds;
    const at = kinds.indexOf('edge.selected');
    expect(kinds.slice(at - 1, at + 1)).toEqual(['node.complete', 'edge.selected']);
    expect(readEvents(run.runDir).filter((e) => e.kind === 'edge.selected')).toHaveLength(decisions.length);
  });

  it('reports a goal gate sending the run back', async () => {
    let tries = 0;
    const registry = createDefaultRegistry().register('flaky', async () => {
      tries += 1;
      return tries === 1 ? { status: 'fail', failure_reason: 'not yet' } : { status: 'success' };
    });
    const run = await runDot(
      `digraph gate {
        retry_target="work"
        start [shape=Mdiamond]
        work [type="flaky", goal_gate=true]
        exit [shape=Msquare]
        start -> work
        work -> exit
        work -> exit [condition="outcome=fail"]
      }`,
      { registry },
    );
    expect(run.result.status).toBe('completed');
    const gate = run.events.find((e) => e.kind === 'edge.selected' && e.data['step'] === 'goal_gate');
    expect(gate?.data).toMatchObject({ from: 'exit', to: 'work', jump: true });
  });
});
