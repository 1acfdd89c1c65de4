import { describe, expect, it } from 'vitest';
import { runDot } from './run-helpers.js';

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
});
