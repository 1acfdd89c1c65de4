import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { runDot } from '../helpers/run-helpers.js';

describe('parallel branch context updates', () => {
  it('reports only keys a branch changed: object values it left alone are not updates', async () => {
    const dot = `digraph par {
      start [shape=Mdiamond]
      plan
      fan [shape=component]
      a
      b
      join [shape=tripleoctagon]
      exit [shape=Msquare]
      start -> plan -> fan
      fan -> a -> join
      fan -> b -> join
      join -> exit
    }`;
    const run = await runDot(dot, {
      scenarioJson: {
        nodes: {
          plan: [{ outcome: 'success', context_updates: { spec: { files: ['x.ts'] } } }],
          a: [{ outcome: 'success', context_updates: { draft: 'A' } }],
        },
      },
    });
    expect(run.result.status).toBe('completed');
    const { context } = run.result;
    expect(context['a.draft']).toBe('A');
    expect(context['spec']).toEqual({ files: ['x.ts'] });
    expect(Object.keys(context).filter((k) => k.endsWith('.spec'))).toEqual([]);
  });

  it('each branch runs on its own deep copy: what one changes in place, no other branch or the parent sees', async () => {
    const dot = `digraph par {
      start [shape=Mdiamond]
      plan [type="plan"]
      fan [shape=component]
      a [type="touch"]
      b [type="touch"]
      join [shape=tripleoctagon]
      exit [shape=Msquare]
      start -> plan -> fan
      fan -> a -> join
      fan -> b -> join
      join -> exit
    }`;
    const registry = createDefaultRegistry()
      .register('plan', async () => ({ status: 'success', context_updates: { spec: { files: ['x.ts'] } } }))
      .register('touch', async ({ node, context }) => {
        const spec = context.get('spec') as { files: string[] };
        spec.files.push(node.id);
        // Both branches have changed theirs before either reads it back.
        await new Promise((resolve) => setTimeout(resolve, 10));
        return { status: 'success', context_updates: { seen: [...spec.files] } };
      });
    const run = await runDot(dot, { registry });
    expect(run.result.status).toBe('completed');
    expect(run.result.context['a.seen']).toEqual(['x.ts', 'a']);
    expect(run.result.context['b.seen']).toEqual(['x.ts', 'b']);
    expect(run.result.context['spec']).toEqual({ files: ['x.ts'] });
  });
});
