import type { NodeAttrs, PipelineGraph } from '../ir.js';
import type { Transform } from './transform.js';

/** Graph attributes that are defaults for every codergen node (an external ACP agent). */
const AGENT_KEYS = ['agent', 'agent_command', 'agent_permissions'] as const;

/**
 * Copies the graph's `agent`, `agent_command` and `agent_permissions` onto codergen nodes that set none,
 * after the stylesheet: a node's own value wins, then the stylesheet's, then the graph's. Other handlers
 * never talk to an agent, so they are left as written.
 */
export const agentDefaultsTransform: Transform = {
  name: 'agent-defaults',
  apply(graph: PipelineGraph): PipelineGraph {
    const defaults: Partial<NodeAttrs> = {};
    for (const key of AGENT_KEYS) {
      const value = graph.attrs[key];
      if (value !== undefined && value.trim() !== '') defaults[key] = value;
    }
    if (Object.keys(defaults).length === 0) return graph;
    const nodes = graph.nodes.map((node) => {
      if (node.handler !== 'codergen') return node;
      const filled: Partial<NodeAttrs> = {};
      for (const key of AGENT_KEYS) {
        if (node.attrs[key] === undefined && defaults[key] !== undefined) filled[key] = defaults[key];
      }
      return Object.keys(filled).length === 0 ? node : { ...node, attrs: { ...node.attrs, ...filled } };
    });
    return { ...graph, nodes };
  },
};
