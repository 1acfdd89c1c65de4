import type {
  EdgeAttrs,
  GraphAttrs,
  NodeAttrs,
  PipelineEdge,
  PipelineGraph,
  PipelineNode,
} from '../../../src/compiler/ir.js';
import { SHAPE_HANDLERS } from '../../../src/compiler/ir.js';

const loc = { line: 1, column: 1 };

export function makeNode(
  id: string,
  attrs: NodeAttrs = {},
  extra: Record<string, string> = {},
): PipelineNode {
  const handler = attrs.type ?? SHAPE_HANDLERS[attrs.shape ?? 'box'] ?? 'codergen';
  return { id, handler, attrs, extra, classes: [], implicit: false, loc, attrLocs: {} };
}

let edgeIndex = 0;

export function makeEdge(source: string, target: string, attrs: EdgeAttrs = {}): PipelineEdge {
  return { index: edgeIndex++, source, target, attrs, extra: {}, loc, attrLocs: {} };
}

export function makeGraph(options: {
  nodes: PipelineNode[];
  edges?: PipelineEdge[];
  attrs?: GraphAttrs;
  name?: string;
  file?: string;
}): PipelineGraph {
  return {
    name: options.name ?? 'test_pipeline',
    attrs: options.attrs ?? {},
    extra: {},
    nodes: options.nodes,
    edges: options.edges ?? [],
    ...(options.file ? { file: options.file } : {}),
    loc,
    attrLocs: {},
  };
}
