import type { PipelineGraph } from '../compiler/ir.js';
import { ApiError } from './api-error.js';

/**
 * A node with `agent=` names an external coding agent (ACP), which `attractor run` starts as a program
 * of the user's (`agent_command`, or the agent's binary on PATH) with the user's own keys. A server has
 * no such user: it would have to run a program a submitter named, or quietly run its own agent on its
 * own key in that agent's place. It does neither: a real run of such a pipeline is refused (422,
 * `EXTERNAL_AGENT_NOT_SUPPORTED`), naming the nodes; dry and scenario runs simulate those nodes as the
 * CLI does.
 */
export function refuseExternalAgents(graph: PipelineGraph, simulated: boolean): void {
  if (simulated) return;
  const named = graph.nodes.filter((node) => node.attrs.agent?.trim());
  if (named.length === 0) return;
  const which = named.map((node) => `${node.id} (agent=${node.attrs.agent?.trim()})`).join(', ');
  throw new ApiError(
    422,
    'EXTERNAL_AGENT_NOT_SUPPORTED',
    `nodes ${which} name an external coding agent, which a server does not start (it would run a program of the submitter's on the server, or stand in for it with its own agent and key): run this pipeline with \`attractor run\`, remove agent= to use the server's coding agent, or submit it with "dry_run": true or a "scenario".`,
  );
}
