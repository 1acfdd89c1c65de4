/**
 * A compact PipelineGraph builder for the validation tests, independent of the DOT parser.
 * Nodes get a location on their own line in declaration order, then edges, so sorting by location is testable.
 *
 * lintGraph({
 *   nodes: { start: { shape: 'Mdiamond' }, work: { prompt: 'do it' }, done: { shape: 'Msquare' } },
 *   edges: [['start', 'work'], ['work', 'done', { condition: 'outcome=success' }]],
 * })
 */
import type {
  EdgeAttrs,
  GraphAttrs,
  NodeAttrs,
  PipelineEdge,
  PipelineGraph,
  PipelineNode,
} from '../../src/compiler/ir.js';
import { SHAPE_HANDLERS } from '../../src/compiler/ir.js';

export type EdgeSpec = [source: string, target: string, attrs?: EdgeAttrs];

export interface LintGraphSpec {
  name?: string;
  attrs?: GraphAttrs;
  nodes?: Record<string, NodeAttrs & { implicit?: boolean }>;
  edges?: EdgeSpec[];
  /** Nodes named in `edges` but not in `nodes` are added as implicit nodes unless this is false. */
  addImplicitNodes?: boolean;
}

const FILE = 'test.dot';

/** Handler resolution as the parser does it: `type`, else the shape map, else codergen. */
export function handlerOf(attrs: NodeAttrs): string {
  return attrs.type ?? (attrs.shape ? SHAPE_HANDLERS[attrs.shape] : undefined) ?? 'codergen';
}

/** Every attribute written gets a location (on the node's line), as if it came from the DOT source. */
function locsOf(attrs: object, line: number): Record<string, { file: string; line: number; column: number }> {
  return Object.fromEntries(
    Object.keys(attrs).map((key, i) => [key, { file: FILE, line, column: 10 + i * 10 }]),
  );
}

export function lintGraph(spec: LintGraphSpec): PipelineGraph {
  let line = 2;
  const nodes: PipelineNode[] = [];
  const declared = new Set<string>();
  const addNode = (id: string, written: NodeAttrs & { implicit?: boolean }): void => {
    const { implicit = false, ...attrs } = written;
    declared.add(id);
    nodes.push({
      id,
      handler: handlerOf(attrs),
      attrs,
      extra: {},
      classes: [],
      implicit,
      loc: { file: FILE, line, column: 3 },
      attrLocs: locsOf(attrs, line),
    });
    line += 1;
  };
  for (const [id, attrs] of Object.entries(spec.nodes ?? {})) addNode(id, attrs);
  if (spec.addImplicitNodes !== false) {
    for (const [source, target] of spec.edges ?? []) {
      for (const id of [source, target]) if (!declared.has(id)) addNode(id, { implicit: true });
    }
  }
  const edges: PipelineEdge[] = (spec.edges ?? []).map(([source, target, attrs = {}], index) => {
    const edgeLine = line++;
    return {
      index,
      source,
      target,
      attrs,
      extra: {},
      loc: { file: FILE, line: edgeLine, column: 3 },
      attrLocs: locsOf(attrs, edgeLine),
    };
  });
  const attrs = spec.attrs ?? {};
  return {
    name: spec.name ?? 'test',
    attrs,
    extra: {},
    nodes,
    edges,
    file: FILE,
    loc: { file: FILE, line: 1, column: 1 },
    attrLocs: locsOf(attrs, 1),
  };
}

/** start -> work -> done with a prompt on work: a pipeline every rule accepts. */
export function linearGraph(extra: Partial<LintGraphSpec> = {}): PipelineGraph {
  return lintGraph({
    nodes: {
      start: { shape: 'Mdiamond' },
      work: { prompt: 'Do the work.' },
      done: { shape: 'Msquare' },
      ...extra.nodes,
    },
    edges: [['start', 'work'], ['work', 'done'], ...(extra.edges ?? [])],
    ...(extra.attrs ? { attrs: extra.attrs } : {}),
  });
}
