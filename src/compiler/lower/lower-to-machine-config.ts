import type { PipelineEdge, PipelineGraph } from '../ir.js';
import { goalGateRetryTarget } from '../routing/check-goal-gates.js';
import { findFanIn } from '../routing/find-fan-in.js';
import { lowerNode } from './lower-node.js';
import type { MachineConfig, StateConfig, TransitionConfig } from './machine-config.js';
import { CONTROL_STATES, controlTarget, MACHINE_ID, stateKey, stateTarget } from './state-keys.js';

/**
 * Lower a validated graph to the XState machine config that runs it.
 *
 * Every node is a state; every outgoing edge is a guarded transition taken when the node's handler
 * settles (its `onDone` and `onError`), whose guard params carry the edge's condition, label, weight and
 * target, each guard asking the one routing function (`nextStep`) whether it picks this edge. Jumps known from the graph (retry_target,
 * fallback_retry_target, goal-gate retry targets) are direct transitions too; only what is known at run
 * time (`next_node` from a handler, resume) goes through the `__dispatch` state, whose transitions are
 * guarded by the jump target — one per node, so the config stays linear in the graph's size.
 *
 * @example
 * const config = lowerToMachineConfig(graph);
 * JSON.stringify(config); // what `attractor compile --format xstate` prints
 */
export function lowerToMachineConfig(graph: PipelineGraph): MachineConfig {
  const outgoing = new Map<string, PipelineEdge[]>();
  for (const n of graph.nodes) outgoing.set(n.id, []);
  for (const e of graph.edges) outgoing.get(e.source)?.push(e);

  const known = (id: string) => outgoing.has(id);
  const fanIns = new Set(graph.nodes.filter((n) => n.handler === 'parallel.fan_in').map((n) => n.id));
  const isFanIn = (id: string) => fanIns.has(id);
  const goalGateTargets = [
    ...new Set(
      graph.nodes.flatMap((n) =>
        n.attrs.goal_gate === true ? (goalGateRetryTarget(graph, n, known) ?? []) : [],
      ),
    ),
  ];

  const hasGoalGates = graph.nodes.some((n) => n.attrs.goal_gate === true);

  const states: Record<string, StateConfig> = {};
  const dispatch: TransitionConfig[] = [];
  for (const n of graph.nodes) {
    const out = outgoing.get(n.id) ?? [];
    const fanIn =
      n.handler === 'parallel'
        ? findFanIn(
            graph,
            out.map((e) => e.target),
          )
        : undefined;
    states[stateKey(n.id)] = lowerNode(n, {
      outgoing: out,
      known,
      isFanIn,
      goalGateTargets,
      hasGoalGates,
      ...(fanIn ? { fanIn } : {}),
    });
    dispatch.push({ guard: { type: 'jumpTargetIs', params: { node: n.id } }, target: stateTarget(n.id) });
  }
  dispatch.push({
    target: controlTarget(CONTROL_STATES.failed),
    actions: [{ type: 'failUnknownJump' }],
  });

  states[CONTROL_STATES.dispatch] = { always: dispatch };
  states[CONTROL_STATES.completed] = { type: 'final' };
  states[CONTROL_STATES.failed] = { type: 'final' };
  states[CONTROL_STATES.paused] = { type: 'final' };
  states[CONTROL_STATES.cancelled] = { type: 'final' };
  states[CONTROL_STATES.branchDone] = { type: 'final' };

  return {
    id: MACHINE_ID,
    initial: CONTROL_STATES.dispatch,
    meta: { name: graph.name, goal: graph.attrs.goal ?? '' },
    on: {
      PAUSE: { actions: [{ type: 'requestPause' }] },
      STEER: { actions: [{ type: 'steer' }] },
      CANCEL: { target: controlTarget(CONTROL_STATES.cancelled), actions: [{ type: 'cancelRun' }] },
      // Stop at once, like CANCEL, but paused: resuming is the normal next step (a spent budget).
      PAUSE_NOW: { target: controlTarget(CONTROL_STATES.paused), actions: [{ type: 'pauseNow' }] },
    },
    states,
  };
}
