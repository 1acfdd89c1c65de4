import type { Diagnostic } from '../../diagnostic.js';
import type { PipelineNode } from '../../ir.js';
import type { LintRule } from '../lint-rule.js';

const RULE = 'prompt_on_llm_nodes';

/**
 * The label the author wrote. Graphviz displays a node without a label by its id, and the parser may copy the
 * id into `label` for implicit nodes; such a label is not an instruction for the LLM, so a label equal to the
 * id only counts when it was written in the source (it has a location). This resolves docs/semantics.md D.1 #9:
 * "prompt or label" stays the rule, but the id-default no longer hides a node the author forgot to describe.
 */
function authoredLabel(node: PipelineNode): string {
  const label = node.attrs.label?.trim() ?? '';
  if (label === node.id && node.attrLocs['label'] === undefined) return '';
  return label;
}

/** A codergen node with neither prompt nor label sends the LLM nothing to do. */
export const promptOnLlmNodesRule: LintRule = {
  id: RULE,
  severity: 'warning',
  description: 'A codergen (LLM) node should have a prompt or a label.',
  check(graph, index) {
    const findings: Diagnostic[] = [];
    const starts = new Set(index.startIds);
    for (const node of graph.nodes) {
      // Start and exit nodes found by name keep the default codergen handler but never call the LLM.
      if (node.handler !== 'codergen' || starts.has(node.id) || index.exitIdSet.has(node.id)) continue;
      if ((node.attrs.prompt?.trim() ?? '') !== '' || authoredLabel(node) !== '') continue;
      findings.push({
        rule: RULE,
        severity: 'warning',
        message: `LLM node "${node.id}" has neither a prompt nor a label, so the model only sees its id.`,
        node_id: node.id,
        fix: `Add prompt="..." to "${node.id}" describing what the model should do.`,
        loc: node.loc,
      });
    }
    return findings;
  },
};
