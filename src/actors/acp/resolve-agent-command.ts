import type { NodeAttrs } from '../../compiler/ir.js';
import { AttractorError } from '../../shared/errors.js';
import type { AgentConfig } from './agent-config.js';
import { BUILTIN_AGENTS, findBuiltinAgent, GENERIC_AGENT } from './builtin-agents.js';

export interface ResolvedAgent {
  /** The `agent` attribute's value. */
  name: string;
  /** Shell command line that starts the agent. */
  command: string;
  /** How to get the binary, when we know. */
  install?: string;
}

/**
 * The command for a node's `agent`: its `agent_command` wins, then the config (file or environment),
 * then a built-in name's default. Undefined when the node selects no agent.
 *
 * @example
 * resolveAgentCommand({ agent: 'gemini' }, config) // { name: 'gemini', command: 'gemini --acp', install: … }
 */
export function resolveAgentCommand(
  attrs: Pick<NodeAttrs, 'agent' | 'agent_command'>,
  config: Pick<AgentConfig, 'commands'>,
): ResolvedAgent | undefined {
  const name = attrs.agent?.trim().toLowerCase();
  if (!name) return undefined;
  const builtin = findBuiltinAgent(name);
  const install = builtin ? { install: builtin.install } : {};
  const explicit = attrs.agent_command?.trim();
  if (explicit) return { name, command: explicit, ...install };
  const configured = config.commands[name]?.trim();
  if (configured) return { name, command: configured, ...install };
  if (builtin) return { name, command: builtin.command, ...install };
  const known = [...BUILTIN_AGENTS.map((a) => a.name), GENERIC_AGENT].join(', ');
  throw new AttractorError(
    'AGENT_UNKNOWN',
    name === GENERIC_AGENT
      ? 'agent="acp" needs agent_command="<command that starts the agent>".'
      : `unknown agent "${name}": use one of ${known}, or give agent_command, or name its command in attractor.config.json (agents.commands) or ATTRACTOR_AGENT_${name.toUpperCase()}_COMMAND.`,
  );
}
