import { describe, expect, test } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { loadPipeline } from '../../src/compiler/compile.js';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';
import { initialRunState, reduceRunState } from '../../src/tui/reduce-run-state.js';
import type { RunState } from '../../src/tui/run-state.js';
import { runDot } from '../helpers/run-helpers.js';
import { ev, graphOf, runToGate } from './tui-fixtures.js';

const graph = graphOf();
const fold = (events: PipelineEvent[], g = graph): RunState =>
  events.reduce((state, event) => reduceRunState(g, state, event), initialRunState(g));

describe("the activity pane shows the engine's routing decision (edge.selected)", () => {
  const answered = (selected: Record<string, unknown>) => [
    ...runToGate(),
    ev('node.complete', 'review', { status: 'success' }),
    ev('edge.selected', 'review', { from: 'review', to: 'plan', ...selected }),
    ev('node.start', 'plan', { attempt: 1 }),
  ];

  test.each([
    [{ step: 'llm_choice' }, 'router model choice'],
    [{ step: 'preferred_label', label: '[R] Revise' }, 'preferred label "[R] Revise"'],
    [{ step: 'condition', condition: 'context.ready=true' }, 'condition context.ready=true'],
    [{ step: 'suggested_next' }, 'suggested next node'],
    [{ step: 'weight', weight: 3 }, 'highest weight (3)'],
    [{ step: 'lexical' }, 'first by target id among equal weights'],
    [{ step: 'next_node' }, 'next_node from review'],
  ])('%o reads "%s" (inference from the outcome alone would say otherwise)', (selected, words) => {
    expect(fold(answered(selected)).nodes['review']).toMatchObject({ next: 'plan', route: words });
  });

  test('without edge.selected (a log recorded before it existed) the route is still inferred', () => {
    const state = fold([
      ...runToGate(),
      ev('node.complete', 'review', { status: 'success' }),
      ev('node.start', 'plan', { attempt: 1 }),
    ]);
    expect(state.nodes['review']).toMatchObject({ next: 'plan', route: 'suggested next node' });
  });

  test("a child pipeline's decisions do not touch the parent's nodes", () => {
    const state = fold([
      ...runToGate(),
      ev('edge.selected', 'plan', { from: 'plan', to: 'done', step: 'lexical', parent: 'manager' }),
    ]);
    expect(state.nodes['plan']?.next).toBe('implement');
  });

  test('a real run: every finished node shows the step the engine took', async () => {
    const source = `digraph routes {
      start [shape=Mdiamond]
      a [type="scripted"]
      b [type="scripted"]
      c [type="scripted", retry_target="e"]
      e [type="scripted"]
      exit [shape=Msquare]
      start -> a
      a -> b [label="[G] Go"]
      a -> e [label="Stop"]
      b -> c [weight=2]
      b -> e
      c -> exit [condition="outcome=success"]
      e -> exit
    }`;
    const registry = createDefaultRegistry().register('scripted', async ({ node }) => {
      if (node.id === 'a') return { status: 'success', preferred_label: 'go' };
      if (node.id === 'c') return { status: 'fail', failure_reason: 'no' };
      return { status: 'success' };
    });
    const run = await runDot(source, { registry });
    const state = fold(run.events, loadPipeline(source).graph);
    expect(
      Object.fromEntries(['start', 'a', 'b', 'c', 'e'].map((id) => [id, state.nodes[id]?.route])),
    ).toEqual({
      start: 'only edge',
      a: 'preferred label "[G] Go"',
      b: 'highest weight (2)',
      c: 'retry target of c',
      e: 'only edge',
    });
  });
});
