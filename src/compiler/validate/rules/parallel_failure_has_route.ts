import { conditionCanBe, conditionTestsOutcome, parseCondition } from '../../conditions/index.js';
import type { Diagnostic } from '../../diagnostic.js';
import type { PipelineGraph, PipelineNode } from '../../ir.js';
import { findFanIn } from '../../routing/find-fan-in.js';
import type { GraphIndex } from '../graph-index.js';
import type { LintRule } from '../lint-rule.js';

const RULE = 'parallel_failure_has_route';

/** Handlers that never fail on their own: a branch made only of them cannot fail. */
const CANNOT_FAIL: ReadonlySet<string> = new Set(['start', 'exit', 'conditional', 'parallel.fan_in']);

/** Whether a branch can end in FAIL: it reaches, before any fan-in, a node that does work. */
function branchCanFail(start: string, index: GraphIndex): boolean {
  const seen = new Set([start]);
  const queue = [start];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    const node = index.nodes.get(id);
    if (!node) continue;
    if (node.handler === 'parallel.fan_in') continue;
    if (!CANNOT_FAIL.has(node.handler)) return true;
    for (const edge of index.edgesFrom(id)) {
      if (seen.has(edge.target)) continue;
      seen.add(edge.target);
      queue.push(edge.target);
    }
  }
  return false;
}

/**
 * Whether the join policy can come out FAIL given how many branches can fail (as the parallel handler
 * decides): `fail_fast` fails on any failed branch; `wait_all` when every branch failed; `first_success`
 * and `k_of_n` when fewer than k can succeed. Unknown policies are left to the run (it reports them).
 */
function joinCanFail(node: PipelineNode, branches: number, failing: number): string | undefined {
  const join = node.attrs.join_policy ?? 'wait_all';
  const error = node.attrs.error_policy ?? 'continue';
  if (failing === 0) return undefined;
  if (error === 'fail_fast') return 'error_policy=fail_fast: one failed branch fails it';
  if (join === 'wait_all')
    return failing === branches ? 'join_policy=wait_all: it fails when every branch fails' : undefined;
  const k = join === 'first_success' ? 1 : (node.attrs.join_k ?? branches);
  if (join !== 'k_of_n' && join !== 'first_success') return undefined;
  return failing > branches - k ? `join_policy=${join}: it fails when fewer than ${k} succeed` : undefined;
}

/** `node` names a retry target that exists (where its FAIL jumps). */
function hasRetryTarget(node: PipelineNode, index: GraphIndex): boolean {
  const target = (value: string | undefined) => value !== undefined && index.nodes.has(value.trim());
  return target(node.attrs.retry_target) || target(node.attrs.fallback_retry_target);
}

/** A FAIL of `node` has somewhere to go: a fail edge that can hold, or a retry target. */
function routesFailure(node: PipelineNode, index: GraphIndex): boolean {
  if (hasRetryTarget(node, index)) return true;
  return index.edgesFrom(node.id).some((edge) => {
    const text = edge.attrs.condition?.trim() ?? '';
    if (text === '') return false;
    try {
      const parsed = parseCondition(text);
      return conditionTestsOutcome(parsed) && conditionCanBe(parsed, true, 'fail');
    } catch {
      return false; // condition_syntax reports it
    }
  });
}

function finding(node: PipelineNode, why: string, fanIn: string | undefined): Diagnostic {
  const where = fanIn
    ? `neither it nor its fan-in "${fanIn}" routes a failure`
    : 'it has no fan-in and routes no failure';
  return {
    rule: RULE,
    severity: 'warning',
    message: `Parallel node "${node.id}" can fail (${why}), and ${where}: the run fails there.`,
    node_id: node.id,
    fix: fanIn
      ? `Add a fail edge at the fan-in (${fanIn} -> <node> [condition="outcome=fail"]), or retry_target="<node>" on "${node.id}".`
      : `Add retry_target="<node>" (or fallback_retry_target) on "${node.id}".`,
    loc: node.loc,
  };
}

/**
 * When a parallel node's join fails, the run continues at its fan-in, which fails in turn (so its fail
 * edge handles it), unless the parallel node's own retry target takes over (docs/decisions/0161-dead-ends-are-reported.md). Where
 * neither exists, the run fails at the first failing branches: worth a warning with the fix.
 */
export const parallelFailureHasRouteRule: LintRule = {
  id: RULE,
  severity: 'warning',
  description: 'A parallel node whose branches can fail needs a fail edge at its fan-in or a retry_target.',
  check(graph: PipelineGraph, index: GraphIndex) {
    const findings: Diagnostic[] = [];
    for (const node of graph.nodes) {
      if (node.handler !== 'parallel') continue;
      const starts = index.edgesFrom(node.id).map((edge) => edge.target);
      if (starts.length === 0) continue;
      const failing = starts.filter((start) => branchCanFail(start, index)).length;
      const why = joinCanFail(node, starts.length, failing);
      // Its edges are its branches: only its retry targets route its own FAIL.
      if (!why || hasRetryTarget(node, index)) continue;
      const fanIn = findFanIn(graph, starts);
      const fanInNode = fanIn === undefined ? undefined : index.nodes.get(fanIn);
      if (fanInNode && routesFailure(fanInNode, index)) continue;
      findings.push(finding(node, why, fanIn));
    }
    return findings;
  },
};
