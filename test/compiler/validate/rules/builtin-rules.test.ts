import { describe, expect, it } from 'vitest';
import { BUILTIN_LINT_RULES } from '../../../../src/compiler/validate/rules/index.js';
import { validate } from '../../../../src/compiler/validate/validate.js';
import { semanticCases } from './semantic-cases.js';
import { structuralCases } from './structural-cases.js';

const rows = [...structuralCases, ...semanticCases];

/** An edge finding is named by its edge (even when it also names a node), else by its node, else `graph`. */
function target(finding: { node_id?: string; edge?: { source: string; target: string } }): string {
  if (finding.edge) return `${finding.edge.source}->${finding.edge.target}`;
  return finding.node_id ?? 'graph';
}

describe('built-in lint rules', () => {
  it('has a passing and a failing case for every built-in rule', () => {
    for (const rule of BUILTIN_LINT_RULES) {
      const own = rows.filter((row) => row.rule === rule.id);
      expect(
        own.some((row) => row.expected.length === 0),
        `${rule.id} passing case`,
      ).toBe(true);
      expect(
        own.some((row) => row.expected.length > 0),
        `${rule.id} failing case`,
      ).toBe(true);
    }
  });

  it.each(rows)('$rule: $name', ({ rule, graph, expected, severity }) => {
    // One line per finding, one sentence each, with a fix and the source location copied from the IR.
    const findings = validate(graph).filter((d) => d.rule === rule);
    expect(findings.map(target)).toEqual(expected);
    const declared = BUILTIN_LINT_RULES.find((r) => r.id === rule)!;
    for (const finding of findings) {
      expect(finding.severity).toBe(severity ?? declared.severity);
      expect(finding.message).toMatch(/\.$/);
      expect(finding.fix).toBeTruthy();
      expect(finding.loc).toBeDefined();
    }
  });
});
