import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildPipelineHandle, ChildPipelineStatus } from '../actors/handler-types.js';
import { stageDirFor } from '../machines/stage-dir.js';
import { readCheckpoint } from './checkpoint.js';

const STATES: Record<string, ChildPipelineStatus['state']> = {
  running: 'running',
  // A paused run may be resumed by whoever runs it: still the manager's to wait for.
  paused: 'running',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** The stage directory to steer into, once the engine has created it (a node about to start has none yet). */
function activeStageDir(dir: string | undefined | ''): { stageDir?: string } {
  return dir && existsSync(dir) ? { stageDir: dir } : {};
}

/**
 * A child run another process executes (a manager with `stack.child_autostart=false`), seen through
 * its `checkpoint.json`, read afresh at every observation. The checkpoint's `current_node` is the node
 * the child is running (or runs next), so its stage directory is where steering goes.
 */
export function observeChildRun(runDir: string): ChildPipelineHandle {
  const path = join(runDir, 'checkpoint.json');
  const status = (): ChildPipelineStatus => {
    if (!existsSync(path)) return { state: 'running', completedNodes: [], context: {}, runDir };
    let checkpoint: ReturnType<typeof readCheckpoint>;
    try {
      checkpoint = readCheckpoint(path);
    } catch {
      // Replaced atomically, so unreadable means not a checkpoint (yet): observe again next cycle.
      return { state: 'running', completedNodes: [], context: {}, runDir };
    }
    const state = STATES[checkpoint.status] ?? 'running';
    const failure = checkpoint.failure?.reason;
    return {
      state,
      currentNode: checkpoint.current_node,
      completedNodes: checkpoint.completed_nodes,
      context: checkpoint.context,
      runDir,
      ...activeStageDir(stageDirFor(runDir, checkpoint.current_node, checkpoint.restarts)),
      ...(state === 'completed' ? { outcome: { status: 'success' as const } } : {}),
      ...(state === 'failed'
        ? { outcome: { status: 'fail' as const, failure_reason: failure ?? 'failed' } }
        : {}),
    };
  };
  return {
    status,
    steer: () => {},
    // Nothing tells this process when another one finishes: the manager finds out at its next poll.
    done: new Promise<ChildPipelineStatus>(() => {}),
    cancel: () => {},
  };
}
