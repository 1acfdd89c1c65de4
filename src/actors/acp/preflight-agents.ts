import type { PipelineGraph } from '../../compiler/ir.js';
import { AttractorError } from '../../shared/errors.js';
import type { AgentConfig } from './agent-config.js';
import { parsePermissionPolicy } from './answer-permission.js';
import { commandProgram, findExecutable } from './find-executable.js';
import { type ResolvedAgent, resolveAgentCommand } from './resolve-agent-command.js';

export interface AgentNode {
  nodeId: string;
  agent: ResolvedAgent;
}

/** Codergen nodes that run through an external ACP agent, with their resolved commands. */
export function agentNodes(graph: PipelineGraph, config: Pick<AgentConfig, 'commands'>): AgentNode[] {
  const found: AgentNode[] = [];
  for (const node of graph.nodes) {
    if (node.handler !== 'codergen') continue;
    const agent = resolveAgentCommand(node.attrs, config);
    if (!agent) continue;
    if (!parsePermissionPolicy(node.attrs.agent_permissions)) {
      throw new AttractorError(
        'AGENT_PERMISSIONS_INVALID',
        `node ${node.id}: agent_permissions="${node.attrs.agent_permissions}" must be allow, deny or ask.`,
      );
    }
    found.push({ nodeId: node.id, agent });
  }
  return found;
}

/**
 * Refuses a run whose agent binaries are missing before it starts, not at the node that needs one: the
 * message names the command, the nodes and how to install it. Returns the agent nodes.
 */
export function preflightAgents(
  graph: PipelineGraph,
  config: Pick<AgentConfig, 'commands'>,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): AgentNode[] {
  const nodes = agentNodes(graph, config);
  const missing = new Map<string, { agent: ResolvedAgent; nodeIds: string[] }>();
  for (const { nodeId, agent } of nodes) {
    const program = commandProgram(agent.command);
    if (findExecutable(program, env.PATH, cwd)) continue;
    const entry = missing.get(agent.command) ?? { agent, nodeIds: [] };
    entry.nodeIds.push(nodeId);
    missing.set(agent.command, entry);
  }
  if (missing.size === 0) return nodes;
  const lines = [...missing.values()].map(({ agent, nodeIds }) => {
    const how = agent.install ? ` Install it with: ${agent.install}` : '';
    const which = nodeIds.length === 1 ? `node ${nodeIds[0]}` : `nodes ${nodeIds.join(', ')}`;
    return `agent "${agent.name}" for ${which}: command "${commandProgram(agent.command)}" (from "${agent.command}") is not on PATH.${how}`;
  });
  throw new AttractorError(
    'AGENT_NOT_FOUND',
    `${lines.join(' ')} Or point agent_command, attractor.config.json (agents.commands) or ATTRACTOR_AGENT_<NAME>_COMMAND at the agent.`,
  );
}
