import type { NodeHandler } from '../handler-types.js';

/** The terminal node does no work: goal gates are checked by the engine before it is entered. */
export const exitHandler: NodeHandler = async ({ node }) => ({
  status: 'success',
  notes: `Pipeline reached exit node "${node.id}"`,
});
