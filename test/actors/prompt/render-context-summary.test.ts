import { describe, expect, it } from 'vitest';
import type { CompletedStage } from '../../../src/actors/handler-types.js';
import { renderContextSummary } from '../../../src/actors/prompt/render-context-summary.js';
import type { FidelityMode } from '../../../src/compiler/ir.js';

const graph = { name: 'demo', attrs: { goal: 'graph goal' } };
const completedNodes: CompletedStage[] = Array.from({ length: 12 }, (_, i) => ({
  id: `s${String(i + 1).padStart(2, '0')}`,
  status: i === 3 ? 'fail' : 'success',
}));
const context: Record<string, unknown> = {
  goal: 'Ship the thing',
  'internal.retry_count.a': 2,
  long: 'x'.repeat(600),
};
for (let i = 0; i < 35; i++) context[`k${String(i).padStart(2, '0')}`] = `v${i}`;

const render = (fidelity: FidelityMode) => renderContextSummary({ fidelity, graph, context, completedNodes });

describe('renderContextSummary', () => {
  it.each<[FidelityMode, { name: boolean; stages: number; count: boolean; keys: number }]>([
    ['full', { name: true, stages: 12, count: false, keys: 36 }],
    ['compact', { name: true, stages: 12, count: false, keys: 36 }],
    ['truncate', { name: true, stages: 0, count: false, keys: 0 }],
    ['summary:high', { name: false, stages: 10, count: false, keys: 30 }],
    ['summary:medium', { name: false, stages: 5, count: false, keys: 0 }],
    ['summary:low', { name: false, stages: 0, count: true, keys: 0 }],
  ])('%s shows what its fidelity mode lets the model see', (fidelity, expected) => {
    const text = render(fidelity);
    const lines = text.split('\n');
    expect(lines.includes('Pipeline: demo')).toBe(expected.name);
    expect(lines).toContain('Goal: Ship the thing');
    expect(lines.filter((l) => /^- s\d\d: /.test(l))).toHaveLength(expected.stages);
    expect(lines.includes('Completed stages: 12')).toBe(expected.count);
    expect(lines.filter((l) => /^- (k\d\d|long): /.test(l))).toHaveLength(expected.keys);
    expect(text).not.toContain('internal.retry_count');
  });

  it('lists the most recent stages when it cuts them, in order', () => {
    const lines = render('summary:medium').split('\n');
    expect(lines).toContain('Completed stages (last 5 of 12):');
    expect(lines.filter((l) => l.startsWith('- s'))).toEqual([
      '- s08: success',
      '- s09: success',
      '- s10: success',
      '- s11: success',
      '- s12: success',
    ]);
  });

  it('shows statuses of completed stages', () => {
    expect(render('compact')).toContain('- s04: fail');
  });

  it.each<[FidelityMode, string]>([
    ['compact', '- long: <600 bytes>'],
    ['full', `- long: ${'x'.repeat(600)}`],
    ['summary:high', '… [truncated]'],
  ])('%s renders a long value as %j', (fidelity, expected) => {
    const text = renderContextSummary({
      fidelity,
      graph,
      context: { long: 'x'.repeat(600) },
      completedNodes: [],
    });
    expect(text).toContain(expected);
  });

  it('falls back to the graph goal when the context has none', () => {
    expect(renderContextSummary({ fidelity: 'truncate', graph, context: {}, completedNodes: [] })).toBe(
      'Pipeline: demo\nGoal: graph goal',
    );
  });

  it('is deterministic: keys are sorted whatever the insertion order', () => {
    const a = renderContextSummary({
      fidelity: 'compact',
      graph,
      context: { b: 1, a: 2 },
      completedNodes: [],
    });
    const b = renderContextSummary({
      fidelity: 'compact',
      graph,
      context: { a: 2, b: 1 },
      completedNodes: [],
    });
    expect(a).toBe(b);
    expect(a).toContain('Context:\n- a: 2\n- b: 1');
  });
});
