import type { Diagnostic } from '../../diagnostic.js';
import type { PipelineGraph, PipelineNode } from '../../ir.js';
import type { LintRule } from '../lint-rule.js';

const RULE = 'required_attributes';

interface Requirement {
  handler: string;
  /** The missing attribute, or undefined when the node is complete. */
  missing(node: PipelineNode, graph: PipelineGraph): string | undefined;
  fix: string;
}

const isBlank = (value: string | undefined): boolean => value === undefined || value.trim() === '';

/**
 * Handler-required attributes. An ERROR, not a warning (docs/semantics.md): a tool node
 * without a command should fail before the run starts, not in the middle of it.
 */
const REQUIREMENTS: readonly Requirement[] = [
  {
    handler: 'tool',
    missing: (node) => (isBlank(node.attrs.tool_command) ? 'tool_command' : undefined),
    fix: 'Add tool_command="<shell command>" to the node.',
  },
  {
    handler: 'stack.manager_loop',
    // A manager that observes a child someone else started (stack.child_autostart=false) needs no file.
    missing: (node, graph) =>
      isBlank(node.attrs['stack.child_dotfile']) &&
      isBlank(graph.attrs['stack.child_dotfile']) &&
      (node.attrs['stack.child_autostart'] ?? graph.attrs['stack.child_autostart']) !== false
        ? 'stack.child_dotfile'
        : undefined,
    fix: 'Add stack.child_dotfile="child.dot" to the node or the graph (a path relative to this DOT file); if the node is meant as a human gate, use shape=hexagon (shape=house is the manager loop).',
  },
  {
    handler: 'parallel',
    missing: (node) =>
      node.attrs.join_policy === 'k_of_n' && (node.attrs.join_k === undefined || node.attrs.join_k < 1)
        ? 'join_k'
        : undefined,
    fix: 'Add join_k=<number of branches that must succeed> (at least 1), or use another join_policy.',
  },
];

export const requiredAttributesRule: LintRule = {
  id: RULE,
  severity: 'error',
  description:
    'Nodes must carry the attributes their handler needs (tool_command, stack.child_dotfile, join_k).',
  check(graph) {
    const findings: Diagnostic[] = [];
    for (const node of graph.nodes) {
      for (const requirement of REQUIREMENTS) {
        if (node.handler !== requirement.handler) continue;
        const attribute = requirement.missing(node, graph);
        if (attribute === undefined) continue;
        findings.push({
          rule: RULE,
          severity: 'error',
          message: `Node "${node.id}" (handler ${node.handler}) needs a ${attribute} attribute.`,
          node_id: node.id,
          fix: requirement.fix,
          loc: node.loc,
        });
      }
    }
    return findings;
  },
};
