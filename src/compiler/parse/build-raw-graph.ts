import type {
  AttributeASTNode,
  ClusterStatementASTNode,
  DotASTNode,
  EdgeASTNode,
  EdgeTargetASTNode,
  GraphASTNode,
  LiteralASTNode,
  NodeASTNode,
} from 'ts-graphviz/ast';
import { type AttributeOwner, canonicalAttrKey } from '../attributes/attribute-aliases.js';
import type { RawAttr } from '../attributes/raw-attr.js';
import type { SourceLocation } from '../ir.js';
import { decodeDotString } from './decode-dot-string.js';
import { DotLimitError } from './dot-limit-error.js';
import { DotSyntaxError } from './dot-syntax-error.js';
import { isValidNodeId } from './node-id-policy.js';
import type { ParseLimits } from './parse-limits.js';
import type { PositionMap } from './position-map.js';
import type { RawEdge, RawGraph, RawNode } from './raw-graph.js';
import { subgraphClass } from './subgraph-class.js';

interface Scope {
  nodeDefaults: Map<string, RawAttr>;
  edgeDefaults: Map<string, RawAttr>;
  classes: string[];
  label?: string;
}

/**
 * Applies DOT's meaning to the ordered ts-graphviz AST: graph attributes, `node`/`edge` defaults for
 * later statements in their scope only, subgraph flattening with label-derived classes, chained edges
 * split into pairs, `{a b}` groups expanded, implicit nodes, repeated declarations merged.
 * `text` is the normalised text the AST was parsed from (to decode strings from their raw form).
 */
export function buildRawGraph(
  ast: DotASTNode,
  text: string,
  map: PositionMap,
  limits: ParseLimits,
): RawGraph {
  const graphs = ast.children.filter((child): child is GraphASTNode => child.type === 'Graph');
  const graphAst = graphs[0];
  if (!graphAst) throw new DotSyntaxError('Expected a "digraph name { ... }" in the file, found none.');
  const builder = new RawGraphBuilder(text, map, limits);
  return builder.build(graphAst);
}

class RawGraphBuilder {
  private readonly nodes = new Map<string, RawNode>();
  private readonly edges: RawEdge[] = [];
  private readonly graphAttrs = new Map<string, RawAttr>();

  constructor(
    private readonly text: string,
    private readonly map: PositionMap,
    private readonly limits: ParseLimits,
  ) {}

  build(graph: GraphASTNode): RawGraph {
    const scope: Scope = { nodeDefaults: new Map(), edgeDefaults: new Map(), classes: [] };
    this.statements(graph.children, scope, true);
    const name = graph.id ? this.literal(graph.id) : '';
    return {
      name: name.trim() === '' ? 'pipeline' : name,
      loc: this.loc(graph),
      attrs: this.graphAttrs,
      nodes: [...this.nodes.values()],
      edges: this.edges,
    };
  }

  private statements(children: readonly ClusterStatementASTNode[], scope: Scope, isRoot: boolean): void {
    for (const stmt of children) {
      switch (stmt.type) {
        case 'Attribute':
          if (isRoot) this.setAttr(this.graphAttrs, 'graph', stmt, true);
          break;
        case 'AttributeList': {
          const target =
            stmt.kind === 'Node' ? scope.nodeDefaults : stmt.kind === 'Edge' ? scope.edgeDefaults : undefined;
          const owner: AttributeOwner =
            stmt.kind === 'Node' ? 'node' : stmt.kind === 'Edge' ? 'edge' : 'graph';
          for (const attr of stmt.children) {
            if (attr.type !== 'Attribute') continue;
            if (target) this.setAttr(target, owner, attr, false);
            else if (isRoot) this.setAttr(this.graphAttrs, 'graph', attr, true);
          }
          break;
        }
        case 'Node':
          this.declareNode(stmt, scope);
          break;
        case 'Edge':
          this.edge(stmt, scope);
          break;
        case 'Subgraph': {
          const label = this.subgraphLabel(stmt.children);
          const cls = label === undefined ? '' : subgraphClass(label);
          const inner: Scope = {
            nodeDefaults: new Map(scope.nodeDefaults),
            edgeDefaults: new Map(scope.edgeDefaults),
            classes: cls === '' || scope.classes.includes(cls) ? scope.classes : [...scope.classes, cls],
          };
          const innerLabel = label ?? scope.label;
          if (innerLabel !== undefined) inner.label = innerLabel;
          this.statements(stmt.children, inner, false);
          break;
        }
        default:
          break;
      }
    }
  }

  /** A subgraph's label, set anywhere in its body (`label=...` or `graph [label=...]`); the last one wins. */
  private subgraphLabel(children: readonly ClusterStatementASTNode[]): string | undefined {
    let label: string | undefined;
    for (const stmt of children) {
      if (stmt.type === 'Attribute' && this.literal(stmt.key) === 'label') label = this.literal(stmt.value);
      if (stmt.type === 'AttributeList' && stmt.kind === 'Graph') {
        for (const attr of stmt.children) {
          if (attr.type === 'Attribute' && this.literal(attr.key) === 'label')
            label = this.literal(attr.value);
        }
      }
    }
    return label;
  }

  private declareNode(stmt: NodeASTNode, scope: Scope): void {
    const node = this.node(stmt.id, scope);
    if (node.implicit) {
      node.implicit = false;
      node.loc = this.loc(stmt);
    }
    for (const [key, attr] of scope.nodeDefaults) node.defaultAttrs.set(key, attr);
    this.joinScope(node, scope);
    for (const attr of stmt.children) {
      if (attr.type === 'Attribute') this.setAttr(node.explicitAttrs, 'node', attr, true);
    }
  }

  private edge(stmt: EdgeASTNode, scope: Scope): void {
    const targets = stmt.targets;
    if (targets.length - 1 > this.limits.maxEdgeChainLength) {
      throw new DotLimitError(
        'maxEdgeChainLength',
        this.limits.maxEdgeChainLength,
        `This edge chain of ${targets.length - 1} links`,
        { location: this.loc(stmt) },
      );
    }
    const explicit = new Map<string, RawAttr>();
    for (const attr of stmt.children) {
      if (attr.type === 'Attribute') this.setAttr(explicit, 'edge', attr, true);
    }
    let sources = this.endpoints(targets[0], scope);
    for (let i = 1; i < targets.length; i++) {
      const target = targets[i]!;
      const ends = this.endpoints(target, scope);
      const loc = this.loc(targets[i - 1]!);
      for (const source of sources) {
        for (const end of ends) this.addEdge(source, end, scope, explicit, loc);
      }
      sources = ends;
    }
  }

  private addEdge(
    source: string,
    target: string,
    scope: Scope,
    explicit: Map<string, RawAttr>,
    loc: SourceLocation,
  ): void {
    if (this.edges.length >= this.limits.maxEdges) {
      throw new DotLimitError(
        'maxEdges',
        this.limits.maxEdges,
        `The number of edges (with chains expanded)`,
        {
          location: loc,
        },
      );
    }
    const attrs = new Map(scope.edgeDefaults);
    for (const [key, attr] of explicit) attrs.set(key, attr);
    this.edges.push({ index: this.edges.length, source, target, attrs, loc });
  }

  /** Node ids an edge end stands for, creating implicit nodes on first mention. */
  private endpoints(target: EdgeTargetASTNode, scope: Scope): string[] {
    const refs = target.type === 'NodeRef' ? [target] : target.children;
    const ids: string[] = [];
    for (const ref of refs) {
      if (ref.type !== 'NodeRef') continue;
      ids.push(this.node(ref.id, scope).id);
    }
    return ids;
  }

  /** The node with this id, created as implicit (with the scope's defaults and classes) when new. */
  private node(idLiteral: LiteralASTNode, scope: Scope): RawNode {
    const id = this.literal(idLiteral);
    const existing = this.nodes.get(id);
    if (existing) return existing;
    const loc = this.loc(idLiteral);
    if (!isValidNodeId(id)) {
      throw new DotSyntaxError(
        `Node id ${JSON.stringify(id)} is not an identifier: expected letters, digits and underscores, ` +
          'starting with a letter or underscore (inner dashes are allowed). Give the node a short id ' +
          'and put the human-readable name in label="...".',
        { location: loc },
      );
    }
    if (this.nodes.size >= this.limits.maxNodes) {
      throw new DotLimitError('maxNodes', this.limits.maxNodes, 'The number of nodes', { location: loc });
    }
    const node: RawNode = {
      id,
      explicitAttrs: new Map(),
      defaultAttrs: new Map(scope.nodeDefaults),
      subgraphClasses: [],
      implicit: true,
      loc,
    };
    this.joinScope(node, scope);
    this.nodes.set(id, node);
    return node;
  }

  private joinScope(node: RawNode, scope: Scope): void {
    for (const cls of scope.classes) {
      if (!node.subgraphClasses.includes(cls)) node.subgraphClasses.push(cls);
    }
    if (scope.label !== undefined) node.subgraph = scope.label;
  }

  private setAttr(
    target: Map<string, RawAttr>,
    owner: AttributeOwner,
    attr: AttributeASTNode,
    explicit: boolean,
  ): void {
    const key = canonicalAttrKey(owner, this.literal(attr.key));
    target.delete(key);
    target.set(key, { key, value: this.literal(attr.value), loc: this.loc(attr), explicit });
  }

  private literal(lit: LiteralASTNode): string {
    const range = lit.location;
    if (lit.quoted === true && range) {
      return decodeDotString(this.text.slice(range.start.offset + 1, range.end.offset - 1));
    }
    return lit.value;
  }

  private loc(node: { location?: { start: { offset: number } } }): SourceLocation {
    return this.map.locateOutput(node.location?.start.offset ?? 0);
  }
}
