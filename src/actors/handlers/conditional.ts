import type { NodeHandler } from '../handler-types.js';

/** Passes through: the conditions live on the outgoing edges, which the engine evaluates. */
export const conditionalHandler: NodeHandler = async ({ node }) => ({
  status: 'success',
  notes: `Conditional node evaluated: ${node.id}`,
});
