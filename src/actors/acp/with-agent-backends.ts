import type { CodergenBackend, CodergenRequest, CodergenResult } from '../codergen-backend.js';

/**
 * Routes codergen requests by node: those whose node selects an external agent (`agent` attribute) go to
 * `agents`, all others to `fallback` (the simulated or built-in backend). A wrapper over the one seam, so
 * it composes with whatever backend a run was given.
 *
 * @example
 * const backend = withAgentBackends(createSimulatedBackend(), createAcpBackend({ config }));
 */
export function withAgentBackends(fallback: CodergenBackend, agents: CodergenBackend): CodergenBackend {
  return {
    name: `${fallback.name}+${agents.name}`,
    run(request: CodergenRequest): Promise<CodergenResult> {
      const agent = request.node.attrs.agent?.trim();
      return agent ? agents.run(request) : fallback.run(request);
    },
  };
}
