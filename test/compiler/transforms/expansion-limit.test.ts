import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../../src/compiler/compile.js';
import { MAX_EXPANDED_TEXT_BYTES } from '../../../src/compiler/transforms/expansion-limit.js';

/** `count` nodes in a chain, each prompt quoting `reference` `times` times. */
function quoting(count: number, reference: string, times = 1): string {
  const ids = Array.from({ length: count }, (_, i) => `n${i}`);
  const nodes = ids.map((id) => `  ${id} [prompt="${`${reference} `.repeat(times)}"]`).join('\n');
  return `digraph big {
  graph [vars="spec"]
  start [shape=Mdiamond]
  exit [shape=Msquare]
${nodes}
  start -> ${ids.join(' -> ')} -> exit
}`;
}

const promptBytes = (graph: ReturnType<typeof loadPipeline>['graph']): number =>
  graph.nodes.reduce((sum, n) => sum + Buffer.byteLength(n.attrs.prompt ?? ''), 0);

describe('the expanded size of prompts and labels is bounded', () => {
  const big = 'g'.repeat(700_000);

  it.each([
    ['a 700 KB goal quoted by 300 nodes', quoting(300, '$goal'), { goal: big }, '$goal'],
    ['a 700 KB goal quoted 20 times in one prompt', quoting(1, '$goal', 20), { goal: big }, '$goal'],
    ['a 700 KB parameter quoted by 300 nodes', quoting(300, '$spec'), { vars: { spec: big } }, 'parameters'],
  ])('%s is an error naming the limit, and nothing is expanded', (_name, source, options, what) => {
    const { graph, diagnostics } = loadPipeline(source, options);
    const errors = diagnostics.filter((d) => d.rule === 'expansion_too_large');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.severity).toBe('error');
    expect(errors[0]?.message).toContain(what);
    expect(errors[0]?.message).toContain(`limit of ${MAX_EXPANDED_TEXT_BYTES} bytes`);
    expect(promptBytes(graph)).toBeLessThan(100_000);
  });

  it('expands a pipeline within the limit as before', () => {
    const { graph, diagnostics } = loadPipeline(quoting(50, '$goal $spec'), {
      goal: 'g'.repeat(20_000),
      vars: { spec: 's'.repeat(20_000) },
    });
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(promptBytes(graph)).toBeGreaterThan(50 * 40_000);
  });
});
