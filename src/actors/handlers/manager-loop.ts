import { dirname, resolve } from 'node:path';
import { evaluateCondition } from '../../compiler/conditions/index.js';
import type { Outcome } from '../../compiler/outcome.js';
import type {
  ChildPipelineHandle,
  ChildPipelineStatus,
  ContextValues,
  NodeHandler,
} from '../handler-types.js';
import { expandContextKeys } from '../prompt/expand-context-keys.js';
import { parseManagerActions } from './manager-actions.js';

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
  };
}

/**
 * Supervises a child pipeline (reference §2 `house`): starts `stack.child_dotfile` (node attribute, else
 * graph attribute; relative to this graph's file) and, every `manager.poll_interval` ms, observes it.
 * The child completing is SUCCESS, failing or being cancelled is FAIL, `manager.stop_condition` (tested
 * against the child's context plus `stack.child.*`) becoming true is SUCCESS and stops the child, and
 * `manager.max_cycles` observations without either is FAIL. With `steer` among `manager.actions`, the
 * node's prompt is sent to the child once for each child node it is seen running.
 */
export const managerLoopHandler: NodeHandler = async ({ node, graph, context, signal, services }) => {
  const childFile = node.attrs['stack.child_dotfile'] ?? graph.attrs['stack.child_dotfile'];
  if (!childFile) {
    return { status: 'fail', failure_reason: 'stack.child_dotfile is not set on the node or the graph' };
  }
  const parsed = parseManagerActions(node.attrs['manager.actions']);
  if (!parsed.ok) return { status: 'fail', failure_reason: `unknown manager action "${parsed.unknown}"` };
  const { actions } = parsed;
  const pollMs =
    node.attrs['manager.poll_interval'] ?? graph.attrs['manager.poll_interval'] ?? DEFAULT_POLL_INTERVAL_MS;
  const maxCycles =
    node.attrs['manager.max_cycles'] ?? graph.attrs['manager.max_cycles'] ?? DEFAULT_MAX_CYCLES;
  const stopCondition = node.attrs['manager.stop_condition'] ?? graph.attrs['manager.stop_condition'];
  const dotFile = resolve(graph.file ? dirname(graph.file) : process.cwd(), childFile);

  const childAbort = new AbortController();
  const child = services.startChildPipeline({
    dotFile,
    managerNodeId: node.id,
    context: context.snapshot(),
    signal: AbortSignal.any([signal, childAbort.signal]),
  });
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
    if (actions.has('steer') && message && status.currentNode && status.currentNode !== steeredAt) {
      steeredAt = status.currentNode;
      child.steer(expandContextKeys(message, context.toDict()));
      services.emit('manager.steer', { cycle, child_node: status.currentNode }, node.id);
    }
    // Always pause between cycles, `wait` or not: back-to-back cycles would burn max_cycles in a moment.
    if (cycle < maxCycles) await pause(pollMs, child, signal);
  }
  return end({ status: 'fail', failure_reason: `Max cycles exceeded (${maxCycles})` }, updates, true);
};
