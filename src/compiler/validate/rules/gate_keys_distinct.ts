import { parseAcceleratorKey } from '../../accelerator.js';
import type { Diagnostic } from '../../diagnostic.js';
import { type GateChoice, gateChoices } from '../../gate-choices.js';
import type { PipelineEdge, PipelineNode } from '../../ir.js';
import type { LintRule } from '../lint-rule.js';

const RULE = 'gate_keys_distinct';

/** Whether the label writes its key (`[A] Approve`, `A) Approve`, `A - Approve`) rather than starting with it. */
const writesKey = (label: string): boolean => parseAcceleratorKey(label).label !== label.trim();

/**
 * Two choices of one human gate with the same accelerator key (`[A] Approve`, `[A] Abandon`): typing
 * the key always takes the first, so the other can only be reached by its full label. A clash is an
 * error when a label writes its key; keys both taken from first letters (`Approve`, `Abandon`) are the
 * fallback of labels that chose none, and stay allowed.
 */
export const gateKeysDistinctRule: LintRule = {
  id: RULE,
  severity: 'error',
  description: 'The choices of a human gate have distinct accelerator keys.',
  check(graph, index) {
    const findings: Diagnostic[] = [];
    for (const node of graph.nodes) {
      if (node.handler !== 'wait.human') continue;
      const edges = index.edgesFrom(node.id);
      const choices = gateChoices(node, edges);
      for (const [key, clash] of clashes(choices)) {
        if (clash.some((choice) => writesKey(choice.label))) findings.push(finding(node, edges, key, clash));
      }
    }
    return findings;
  },
};

function clashes(choices: readonly GateChoice[]): Map<string, GateChoice[]> {
  const byKey = new Map<string, GateChoice[]>();
  for (const choice of choices) byKey.set(choice.key, [...(byKey.get(choice.key) ?? []), choice]);
  for (const [key, same] of byKey) if (same.length < 2) byKey.delete(key);
  return byKey;
}

function finding(
  node: PipelineNode,
  edges: readonly PipelineEdge[],
  key: string,
  clash: readonly GateChoice[],
): Diagnostic {
  const labels = clash.map((choice) => `"${choice.label}"`).join(', ');
  const edge = edges.find(
    (e) => e.target === clash[1]?.target && (e.attrs.label || e.target) === clash[1]?.label,
  );
  return {
    rule: RULE,
    severity: 'error',
    message: `Gate "${node.id}" has ${clash.length} choices with the key ${key} (${labels}): typing ${key} always takes the first.`,
    node_id: node.id,
    fix: 'Give each choice its own key in its label, e.g. "[A] Approve" and "[X] Abandon".',
    ...(edge
      ? { edge: { source: edge.source, target: edge.target }, loc: edge.attrLocs['label'] ?? edge.loc }
      : { loc: node.loc }),
  };
}
