import { describe, expect, it } from 'vitest';
import { indexGraph } from '../../../../src/compiler/validate/graph-index.js';
import { conditionSyntaxRule } from '../../../../src/compiler/validate/rules/condition_syntax.js';
import { linearGraph } from '../../../helpers/lint-graph.js';

describe('condition_syntax messages', () => {
  // A 20,000-character condition used to be echoed whole in the one-line message.
  it.each([
    ['too long', `${'('.repeat(6000)}outcome=success${')'.repeat(6000)}`],
    ['long and wrong', `${'a=1 && '.repeat(2000)}outcome==success`],
  ])('quotes only the start of a %s condition', (_name, condition) => {
    const graph = linearGraph({
      nodes: { other: { prompt: 'x' } },
      edges: [['work', 'other', { condition }]],
    });
    const findings = conditionSyntaxRule.check(graph, indexGraph(graph));
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message.length).toBeLessThan(400);
    expect(findings[0]!.message).toContain(`(${condition.length} characters)`);
  });
});
