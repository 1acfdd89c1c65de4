import type { PipelineGraph } from '../../compiler/ir.js';
import type { ModelChoice } from './resolve-model.js';

/** One place a run will call a model: a codergen node, or the router of `llm_decide` edges / fan-in ranking. */
export interface LlmUse {
  /** The node id (the router's calls are listed under the nodes that consult it). */
  nodeId: string;
  kind: 'agent' | 'router';
  choice: ModelChoice;
}

/** The router's model: the graph's `router_model`, else the run's defaults. */
export function routerChoice(graph: PipelineGraph, defaults: ModelChoice): ModelChoice {
  const routerModel = graph.attrs.router_model?.trim();
  return routerModel ? { model: routerModel } : { ...defaults };
}

/**
 * Every model use of a pipeline, known before it runs: codergen nodes (model after the stylesheet, the
 * defaults filling what a node leaves unset), nodes with `llm_decide` edges out, and fan-in nodes with a prompt.
 */
export function llmUses(graph: PipelineGraph, defaults: ModelChoice = {}): LlmUse[] {
  const uses: LlmUse[] = [];
  const router = routerChoice(graph, defaults);
  const decides = new Set(graph.edges.filter((e) => e.attrs.llm_decide).map((e) => e.source));
  for (const node of graph.nodes) {
    // A node driven by an external coding agent (ACP, `agent=...`) calls no model of ours.
    if (node.handler === 'codergen' && !node.attrs.agent?.trim()) {
      uses.push({
        nodeId: node.id,
        kind: 'agent',
        choice: {
          model: node.attrs.llm_model ?? defaults.model,
          provider: node.attrs.llm_provider ?? defaults.provider,
        },
      });
    }
    if (decides.has(node.id) || (node.handler === 'parallel.fan_in' && node.attrs.prompt)) {
      uses.push({ nodeId: node.id, kind: 'router', choice: router });
    }
  }
  return uses;
}
