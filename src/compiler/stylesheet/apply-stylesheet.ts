import type { NodeAttrs, PipelineGraph, PipelineNode } from '../ir.js';
import type { StyleRule, StyleSelector, Stylesheet, StyleValues } from './stylesheet.js';

/** Nodes without a `shape` are boxes, so `box { ... }` matches them too. */
const DEFAULT_SHAPE = 'box';

export function selectorMatches(selector: StyleSelector, node: PipelineNode): boolean {
  switch (selector.kind) {
    case 'universal':
      return true;
    case 'shape':
      return (node.attrs.shape ?? DEFAULT_SHAPE) === selector.shape;
    case 'class':
      return node.classes.includes(selector.name);
    case 'id':
      return node.id === selector.id;
  }
}

/**
 * The stylesheet values for one node: matching rules applied from lowest to highest specificity, later
 * rules winning ties, so the most specific rule's value is the one left.
 */
export function resolveStyle(stylesheet: Stylesheet, node: PipelineNode): StyleValues {
  const matching = stylesheet.rules
    .filter((rule) => selectorMatches(rule.selector, node))
    .sort((a: StyleRule, b: StyleRule) => a.specificity - b.specificity || a.order - b.order);
  const values: Record<string, string | number> = {};
  for (const rule of matching) {
    for (const declaration of rule.declarations) values[declaration.property] = declaration.value;
  }
  return values as StyleValues;
}

/**
 * Returns a new graph whose nodes carry the stylesheet's values wherever the DOT did not set them.
 * Any value already on a node wins — written on the node itself or inherited from a `node [...]` default
 * block (both are the author's explicit choice for that node). The input graph is not modified.
 *
 * @example
 * applyStylesheet(graph, parseStylesheet('box { llm_model: claude-opus-4-6 }'));
 */
export function applyStylesheet(graph: PipelineGraph, stylesheet: Stylesheet): PipelineGraph {
  if (stylesheet.rules.length === 0) return graph;
  const nodes = graph.nodes.map((node) => {
    const style = resolveStyle(stylesheet, node);
    const filled: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(style)) {
      if (node.attrs[key as keyof NodeAttrs] === undefined) filled[key] = value;
    }
    return Object.keys(filled).length === 0 ? node : { ...node, attrs: { ...node.attrs, ...filled } };
  });
  return { ...graph, nodes };
}
