import type { PipelineGraph } from '../compiler/ir.js';
import { SHAPE_HANDLERS } from '../compiler/ir.js';

/**
 * A clean DOT text for drawing: every node with its authored shape (or the shape of its handler
 * when only `type` was given) and its label, every edge with its label or condition. Pipeline-only
 * attributes are left out, so what Graphviz reads is plain, well-formed DOT whatever the source looked like.
 */
export interface GraphDrawingOptions {
  /** Fill colour per node id (the server colours nodes by live status). */
  fill?: Readonly<Record<string, string>>;
}

export function renderGraphDot(graph: PipelineGraph, options: GraphDrawingOptions = {}): string {
  const lines = [`digraph ${quote(graph.name || 'pipeline')} {`];
  lines.push('  graph [rankdir=TB, fontname="Helvetica"];');
  lines.push('  node [fontname="Helvetica", fontsize=11];');
  lines.push('  edge [fontname="Helvetica", fontsize=9];');
  if (graph.attrs.goal) lines.push(`  label=${quote(clip(graph.attrs.goal))}; labelloc=t;`);
  for (const node of graph.nodes) {
    const shape = node.attrs.shape ?? shapeForHandler(node.handler);
    const label = clip(node.attrs.label ?? node.id);
    const fill = options.fill?.[node.id];
    const style = fill ? `, style=filled, fillcolor=${quote(fill)}` : '';
    lines.push(`  ${quote(node.id)} [shape=${quote(shape)}, label=${quote(label)}${style}];`);
  }
  for (const edge of graph.edges) {
    const label = edge.attrs.label ?? edge.attrs.condition;
    const attrs = label ? ` [label=${quote(clip(label))}]` : '';
    lines.push(`  ${quote(edge.source)} -> ${quote(edge.target)}${attrs};`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/**
 * The most characters of a label a drawing shows. Graphviz lays a label out in time that grows with
 * its length (a 3 MB label took ~5 s), and a drawing cannot show more than a few lines of one anyway.
 */
export const MAX_DRAWN_LABEL_CHARS = 200;

function clip(text: string): string {
  if (text.length <= MAX_DRAWN_LABEL_CHARS) return text;
  const chars = Array.from(text.slice(0, MAX_DRAWN_LABEL_CHARS * 2)).slice(0, MAX_DRAWN_LABEL_CHARS - 1);
  return `${chars.join('')}…`;
}

function shapeForHandler(handler: string): string {
  for (const [shape, type] of Object.entries(SHAPE_HANDLERS)) if (type === handler) return shape;
  return 'box';
}

/** A DOT double-quoted string showing `text` literally (Graphviz reads `\n` in labels as a newline). */
function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`;
}
