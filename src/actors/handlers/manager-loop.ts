import { evaluateCondition } from '../../compiler/conditions/index.js';
import type { Outcome } from '../../compiler/outcome.js';
import type {
  ChildPipelineHandle,
  ChildPipelineStatus,
  ContextValues,
  NodeHandler,
} from '../handler-types.js';
import { expandContextKeys } from '../prompt/expand-context-keys.js';
import { writeSteering } from '../steering-file.js';
import { parseManagerActions } from './manager-actions.js';
import { acquireChild } from './manager-child.js';

/** A.4 defaults: poll every 45 s, give up after 1000 cycles. */
export const DEFAULT_POLL_INTERVAL_MS = 45_000;
export const DEFAULT_MAX_CYCLES = 1000;

/** Resolve after `ms`, when the child finishes, or when aborted — whichever comes first. */
function pause(ms: number, child: ChildPipelineHandle, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      done();
    };
    const timer = setTimeout(finish, ms);
    signal.addEventListener('abort', finish, { once: true });
    child.done.then(finish, finish);
  });
}

/** What the manager writes to its context, and what its stop condition can test besides the child's keys. */
function telemetry(cycle: number, status: ChildPipelineStatus): ContextValues {
  return {
    'manager.cycle': cycle,
    'manager.child.state': status.state,
    'manager.child.current_node': status.currentNode ?? '',
    'manager.child.completed_nodes': [...status.completedNodes],
    'stack.child.status': status.state,
    'stack.child.outcome': status.outcome?.status ?? '',
    'stack.child.current_node': status.currentNode ?? '',
    // Not `stack.child.run_dir`: that key is a later manager's input (which run to observe), and a
    // started child's folder there would send it to observe a finished child forever.
    ...(status.runDir ? { 'manager.child.run_dir': status.runDir } : {}),
  };
}

/**
 * Supervises a child pipeline. The child is started from `stack.child_dotfile`
 * (node attribute, else graph attribute; relative to this graph's file) in `stack.child_workdir`, or,
 * with `stack.child_autostart=false`, one someone else started is observed (manager-child.ts). Every
 * `manager.poll_interval` ms it is observed. The child completing is SUCCESS, failing or being cancelled
 * is FAIL, `manager.stop_condition` (tested against the child's context plus `stack.child.*`) becoming
 * true is SUCCESS and stops a child this node started, and `manager.max_cycles` observations without
 * either is FAIL. With `steer` among `manager.actions`, the node's prompt goes to `steering.md` in the
 * stage directory of the node the child runs, once per child node and never sooner than
 * `manager.steer_cooldown` (default: the poll interval) after the previous one.
 */
export const managerLoopHandler: NodeHandler = async (input) => {
  const { node, graph, context, signal, services } = input;
  const parsed = parseManagerActions(node.attrs['manager.actions']);
  if (!parsed.ok) return { status: 'fail', failure_reason: `unknown manager action "${parsed.unknown}"` };
  const { actions } = parsed;
  const pollMs =
    node.attrs['manager.poll_interval'] ?? graph.attrs['manager.poll_interval'] ?? DEFAULT_POLL_INTERVAL_MS;
  const maxCycles =
    node.attrs['manager.max_cycles'] ?? graph.attrs['manager.max_cycles'] ?? DEFAULT_MAX_CYCLES;
  const stopCondition = node.attrs['manager.stop_condition'] ?? graph.attrs['manager.stop_condition'];
  const cooldownMs = node.attrs['manager.steer_cooldown'] ?? graph.attrs['manager.steer_cooldown'] ?? pollMs;

  const childAbort = new AbortController();
  const acquired = acquireChild(input, AbortSignal.any([signal, childAbort.signal]));
  if (!acquired.ok) return { status: 'fail', failure_reason: acquired.reason };
  const { child } = acquired;
  const stopChild = () => {
    childAbort.abort(new Error('manager loop stopped'));
    child.cancel();
  };
  const end = (outcome: Outcome, updates: ContextValues, stop: boolean): Outcome => {
    if (stop) stopChild();
    // Interrupted (cancel, hard stop): the child's checkpoint stays, so a resumed visit continues it.
    if (!signal.aborted) child.forget?.();
    return { ...outcome, context_updates: { ...updates, ...outcome.context_updates } };
  };

  let steeredAt: string | undefined;
  let lastSteer: number | undefined;
  let updates: ContextValues = {};
  for (let cycle = 1; cycle <= maxCycles; cycle++) {
    if (signal.aborted) return end({ status: 'fail', failure_reason: 'cancelled' }, updates, true);
    const status = child.status();
    updates = telemetry(cycle, status);
    if (actions.has('observe')) {
      services.emit(
        'manager.cycle',
        { cycle, child_state: status.state, child_node: status.currentNode ?? null },
        node.id,
      );
    }
    if (status.state === 'completed') {
      return end({ status: 'success', notes: `Child completed after ${cycle} cycles` }, updates, false);
    }
    if (status.state === 'failed' || status.state === 'cancelled') {
      const reason = status.outcome?.failure_reason;
      return end(
        { status: 'fail', failure_reason: `Child ${status.state}${reason ? `: ${reason}` : ''}` },
        updates,
        false,
      );
    }
    if (stopCondition) {
      let stop: boolean;
      try {
        stop = evaluateCondition(stopCondition, { context: { ...status.context, ...updates } });
      } catch (error) {
        return end(
          { status: 'fail', failure_reason: `manager.stop_condition: ${(error as Error).message}` },
          updates,
          true,
        );
      }
      if (stop)
        return end({ status: 'success', notes: `Stop condition met: ${stopCondition}` }, updates, true);
    }
    const message = node.attrs.prompt;
    const cooled = lastSteer === undefined || Date.now() - lastSteer >= cooldownMs;
    // A child with a run directory is steered only once its node's stage directory exists: that is
    // where the message is read.
    const reachable = status.stageDir !== undefined || status.runDir === undefined;
    if (
      actions.has('steer') &&
      message &&
      status.currentNode &&
      status.currentNode !== steeredAt &&
      cooled &&
      reachable
    ) {
      steeredAt = status.currentNode;
      lastSteer = Date.now();
      const text = expandContextKeys(message, context.toDict());
      const file = status.stageDir ? writeSteering(status.stageDir, text) : undefined;
      child.steer(text);
      services.emit(
        'manager.steer',
        { cycle, child_node: status.currentNode, ...(file ? { file } : {}) },
        node.id,
      );
    }
    // Always pause between cycles, `wait` or not: back-to-back cycles would burn max_cycles in a moment.
    if (cycle < maxCycles) await pause(pollMs, child, signal);
  }
  return end({ status: 'fail', failure_reason: `Max cycles exceeded (${maxCycles})` }, updates, true);
};
