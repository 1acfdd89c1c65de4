export const MANAGER_ACTIONS = ['observe', 'steer', 'wait'] as const;
export type ManagerAction = (typeof MANAGER_ACTIONS)[number];

/** `manager.actions` (comma or space list; default `observe,wait`), or the first unknown action. */
export function parseManagerActions(
  value: string | undefined,
): { ok: true; actions: Set<ManagerAction> } | { ok: false; unknown: string } {
  const words = (value ?? 'observe,wait').split(/[\s,]+/).filter((word) => word !== '');
  const actions = new Set<ManagerAction>();
  for (const word of words) {
    if (!(MANAGER_ACTIONS as readonly string[]).includes(word)) return { ok: false, unknown: word };
    actions.add(word as ManagerAction);
  }
  return { ok: true, actions };
}
