/**
 * XState resolves `#pipeline.a.b` as a path, so node ids are mapped to state keys without dots.
 * The reserved control states start with `__`, which no DOT identifier we accept can collide with
 * once escaped.
 */
export const CONTROL_STATES = {
  dispatch: '__dispatch',
  completed: '__completed',
  failed: '__failed',
  paused: '__paused',
  cancelled: '__cancelled',
  branchDone: '__branch_done',
} as const;

export const MACHINE_ID = 'pipeline';

export function stateKey(nodeId: string): string {
  const safe = nodeId.replace(/[^A-Za-z0-9_-]/g, (c) => `~${c.codePointAt(0)?.toString(16)}~`);
  return safe.startsWith('__') ? `~${safe}` : safe;
}

export const stateTarget = (nodeId: string): string => `#${MACHINE_ID}.${stateKey(nodeId)}`;
export const controlTarget = (key: string): string => `#${MACHINE_ID}.${key}`;

/** The id of the actor running a node's handler: the node's id, so an inspector names it. */
export const handlerActorId = (nodeId: string): string => nodeId;
/** The id of the actor waiting out a node's retry backoff. */
export const backoffActorId = (nodeId: string): string => `backoff:${nodeId}`;
