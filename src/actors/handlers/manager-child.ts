import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultReadScope, resolveInScope } from '../../compiler/files/read-scope.js';
import type { ChildPipelineHandle, ChildPipelineStatus, HandlerInput } from '../handler-types.js';

export type AcquiredChild =
  | { ok: true; child: ChildPipelineHandle; started: boolean }
  | { ok: false; reason: string };

/** Context keys an earlier node sets to name the child a non-starting manager observes. */
export const CHILD_RUN_DIR_KEY = 'stack.child.run_dir';
const SPEC_STATUS_KEY = 'context.stack.child.status';
const SPEC_OUTCOME_KEY = 'context.stack.child.outcome';

/**
 * The child a manager loop supervises. With `stack.child_autostart` (default true) it starts
 * `stack.child_dotfile` (relative to the graph file, inside the graph's read scope) in `stack.child_workdir` (relative to the run's
 * working directory; default: that directory). With `stack.child_autostart=false` it starts nothing
 * and observes a child run someone else started: the run directory in context key `stack.child.run_dir`
 * (relative to the run's working directory), else the `context.stack.child.status` /
 * `context.stack.child.outcome` keys as an earlier node left them (docs/semantics.md#e7).
 */
export function acquireChild(input: HandlerInput, childSignal: AbortSignal): AcquiredChild {
  const { node, graph, context, services } = input;
  const base = input.workingDir ?? process.cwd();
  const autostart = node.attrs['stack.child_autostart'] ?? graph.attrs['stack.child_autostart'] ?? true;
  if (!autostart) return observe(input, base);

  const childFile = node.attrs['stack.child_dotfile'] ?? graph.attrs['stack.child_dotfile'];
  if (!childFile) return { ok: false, reason: 'stack.child_dotfile is not set on the node or the graph' };
  const workdirAttr = node.attrs['stack.child_workdir'] ?? graph.attrs['stack.child_workdir'];
  const workingDir = workdirAttr ? resolve(base, workdirAttr) : undefined;
  if (workingDir && !(existsSync(workingDir) && statSync(workingDir).isDirectory())) {
    return { ok: false, reason: `stack.child_workdir ${workingDir} is not a directory` };
  }
  const dotFile = resolveInScope(childFile, graph.readScope ?? defaultReadScope(graph.file));
  if (!dotFile.ok)
    return { ok: false, reason: `stack.child_dotfile "${childFile}" is refused: ${dotFile.reason}` };
  const child = services.startChildPipeline({
    dotFile: dotFile.path,
    managerNodeId: node.id,
    context: context.snapshot(),
    signal: childSignal,
    ...(workingDir ? { workingDir } : {}),
  });
  return { ok: true, child, started: true };
}

function observe(input: HandlerInput, base: string): AcquiredChild {
  const { context, services } = input;
  const runDir = context.get(CHILD_RUN_DIR_KEY);
  if (typeof runDir === 'string' && runDir !== '') {
    if (!services.observeChildRun) return { ok: false, reason: 'this engine cannot observe child runs' };
    return { ok: true, child: services.observeChildRun({ runDir: resolve(base, runDir) }), started: false };
  }
  const status = context.get(SPEC_STATUS_KEY);
  if (typeof status === 'string' && status !== '') {
    return { ok: true, child: fromContextKeys(status, context.get(SPEC_OUTCOME_KEY)), started: false };
  }
  return {
    ok: false,
    reason: `stack.child_autostart=false but there is no child to observe: an earlier node must set context key ${CHILD_RUN_DIR_KEY} (the child's run directory) or ${SPEC_STATUS_KEY}`,
  };
}

/** The `stack.child.*` keys as an earlier node left them: they cannot change while this node runs. */
function fromContextKeys(status: string, outcome: unknown): ChildPipelineHandle {
  const failed = status === 'failed' || outcome === 'fail';
  const state: ChildPipelineStatus['state'] = failed
    ? 'failed'
    : status === 'completed'
      ? 'completed'
      : 'running';
  const snapshot: ChildPipelineStatus = {
    state,
    completedNodes: [],
    context: {},
    ...(state === 'completed' ? { outcome: { status: 'success' } } : {}),
    ...(state === 'failed' ? { outcome: { status: 'fail', failure_reason: `child ${status}` } } : {}),
  };
  return {
    status: () => snapshot,
    steer: () => {},
    done: state === 'running' ? new Promise(() => {}) : Promise.resolve(snapshot),
    cancel: () => {},
  };
}
