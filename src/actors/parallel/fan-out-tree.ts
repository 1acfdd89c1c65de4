import * as z from 'zod';
import { MERGE_MODES } from '../../compiler/parallel-isolation.js';

/**
 * The `parallel.tree` context value an isolated fan-out leaves for its join: the fan-out's snapshot
 * (every branch's folder was made from it) and how the branches join. null after a fan-out that was not
 * isolated, so a fan-in never merges an earlier fan-out's branches.
 */
export const FanOutTreeSchema = z.object({
  node: z.string(),
  base: z.string(),
  merge: z.enum(MERGE_MODES),
});
export type FanOutTree = z.infer<typeof FanOutTreeSchema>;

export const FAN_OUT_TREE_KEY = 'parallel.tree';
