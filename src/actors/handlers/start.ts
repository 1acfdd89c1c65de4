import type { NodeHandler } from '../handler-types.js';

/** The entry point does no work: the engine has already seeded the context before it runs. */
export const startHandler: NodeHandler = async ({ node }) => ({
  status: 'success',
  notes: `Pipeline started at ${node.id}`,
});
