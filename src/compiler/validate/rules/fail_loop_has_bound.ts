import { conditionCanBe, conditionKeys, parseCondition } from '../../conditions/index.js';
import type { Diagnostic } from '../../diagnostic.js';
import type { PipelineGraph, PipelineNode } from '../../ir.js';
import type { GraphIndex } from '../graph-index.js';
import type { LintRule } from '../lint-rule.js';
import { stronglyConnectedComponents } from '../strongly-connected-components.js';

const RULE = 'fail_loop_has_bound';

/** Nodes where a person or a supervisor decides each time round, so the loop has a bound outside the graph. */
const DECIDING_HANDLERS: ReadonlySet<string> = new Set(['wait.human', 'stack.manager_loop']);

/** A context key that counts (`internal.retry_count.x`, `internal.visit_count.x`, `attempts`, `round`…). */
const COUNTER = /count|visit|attempt|iteration|round|retr/i;

interface FailureRoute {
  from: string;
  to: string;
  how: string;
}

/** Where a FAIL of `node` can go: conditional edges that hold for outcome=fail, and its retry targets. */
function failureRoutes(node: PipelineNode, index: GraphIndex): { routes: FailureRoute[]; counted: boolean } {
  const routes: FailureRoute[] = [];
  let counted = false;
  for (const edge of index.edgesFrom(node.id)) {
    const text = edge.attrs.condition?.trim() ?? '';
    if (text === '') continue;
    let parsed: ReturnType<typeof parseCondition>;
    try {
      parsed = parseCondition(text);
    } catch {
      continue; // condition_syntax reports it
    }
    const keys = conditionKeys(parsed);
    // Any edge that tests a counter (a way out after N rounds, or a fail edge that stops after N) bounds it.
    if (keys.some((key) => COUNTER.test(key))) counted = true;
    if (!keys.includes('outcome')) continue;
    if (!conditionCanBe(parsed, true, 'fail')) continue;
    routes.push({ from: node.id, to: edge.target, how: `[condition="${text}"]` });
  }
  for (const attr of ['retry_target', 'fallback_retry_target'] as const) {
    const target = node.attrs[attr]?.trim();
    if (target && index.nodes.has(target)) routes.push({ from: node.id, to: target, how: `(${attr})` });
  }
  return { routes, counted };
}

function loopFinding(members: readonly PipelineNode[], route: FailureRoute): Diagnostic {
  const names = members.map((node) => `"${node.id}"`).join(', ');
  const first = members[0]!;
  return {
    rule: RULE,
    severity: 'warning',
    message:
      `Nodes ${names} form a loop that repeats on failure ("${route.from}" -> "${route.to}" ${route.how}) with nothing ` +
      'to bound it: a step that keeps failing circles it until --max-steps, calling the model every time.',
    node_id: route.to,
    fix:
      `Set max_visits on a node of the loop (for example max_visits=3 on "${route.to}") or a graph default_max_visits, ` +
      'and give that node a fallback_retry_target or a fail edge out of the loop.',
    loc: first.loc,
  };
}

/**
 * A loop that a FAIL can send round again (a fail edge or a retry target inside it) needs a bound:
 * `max_visits` on one of its nodes (or the graph's `default_max_visits`), a condition on a counter, or
 * a person or supervisor deciding inside it. `max_retries` alone does not bound it: each trip round
 * is a new visit with a fresh retry budget. The bound must sit on the loop the failure goes round: a
 * human gate that also leads back into it (`gate -> implement`) does not stop `test -> implement
 * [condition="outcome=fail"]` from circling without it, so bounding nodes are taken out of the graph
 * before the loops are looked for.
 */
export const failLoopHasBoundRule: LintRule = {
  id: RULE,
  severity: 'warning',
  description:
    'A loop that repeats on failure needs max_visits (or default_max_visits) or a counter condition on it.',
  check(graph: PipelineGraph, index: GraphIndex) {
    if ((graph.attrs.default_max_visits ?? 0) >= 1) return [];
    const position = new Map(graph.nodes.map((node, i) => [node.id, i]));
    const routesOf = new Map(graph.nodes.map((node) => [node.id, failureRoutes(node, index)]));
    const bounds = (node: PipelineNode): boolean =>
      (node.attrs.max_visits ?? 0) >= 1 ||
      DECIDING_HANDLERS.has(node.handler) ||
      routesOf.get(node.id)?.counted === true;
    const free = new Set(graph.nodes.filter((node) => !bounds(node)).map((node) => node.id));
    const successors = (id: string): string[] =>
      [
        ...index.edgesFrom(id).map((edge) => edge.target),
        ...(routesOf.get(id)?.routes ?? []).map((route) => route.to),
      ].filter((target) => free.has(target));
    const findings: Diagnostic[] = [];
    for (const component of stronglyConnectedComponents([...free], successors)) {
      const inside = new Set(component);
      const members = component
        .map((id) => index.nodes.get(id)!)
        .sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
      const repeat = members
        .flatMap((node) => routesOf.get(node.id)?.routes ?? [])
        .find((route) => inside.has(route.to) && (component.length > 1 || route.to === route.from));
      if (repeat) findings.push(loopFinding(members, repeat));
    }
    return findings.sort((a, b) => (a.loc?.line ?? 0) - (b.loc?.line ?? 0));
  },
};
