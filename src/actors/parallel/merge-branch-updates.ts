import type { ContextValues } from '../handler-types.js';

/**
 * Branch context updates, namespaced under the branch id (docs/semantics.md): branch `a` setting `draft`
 * gives `a.draft`, so branches that wrote the same key do not overwrite each other.
 */
export function mergeBranchUpdates(
  branches: ReadonlyArray<{ branchId: string; updates: Readonly<ContextValues> }>,
): ContextValues {
  const merged: ContextValues = {};
  for (const { branchId, updates } of branches) {
    for (const [key, value] of Object.entries(updates)) merged[`${branchId}.${key}`] = value;
  }
  return merged;
}
