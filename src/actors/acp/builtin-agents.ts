/**
 * The external coding agents Attractor knows by name, with the command that starts each in Agent Client
 * Protocol mode and how to install it. docs/guides/external-agents.md lists the same commands (a
 * test keeps them in step). Gemini CLI speaks ACP itself (`--acp`; older releases called the flag
 * `--experimental-acp`); Claude Code and Codex speak it through adapters published by the ACP project.
 */
export interface BuiltinAgent {
  /** The value of the `agent` attribute. */
  name: string;
  /** Started with `/bin/sh -c`, so it may carry arguments. */
  command: string;
  install: string;
  title: string;
}

export const BUILTIN_AGENTS: readonly BuiltinAgent[] = [
  {
    name: 'claude',
    title: 'Claude Code',
    command: 'claude-agent-acp',
    install: 'npm install -g @agentclientprotocol/claude-agent-acp',
  },
  {
    name: 'gemini',
    title: 'Gemini CLI',
    command: 'gemini --acp',
    install: 'npm install -g @google/gemini-cli',
  },
  {
    name: 'codex',
    title: 'Codex',
    command: 'codex-acp',
    install: 'npm install -g @agentclientprotocol/codex-acp',
  },
];

/** `agent="acp"`: any ACP agent, started by the node's (or graph's) `agent_command`. */
export const GENERIC_AGENT = 'acp';

export function findBuiltinAgent(name: string): BuiltinAgent | undefined {
  return BUILTIN_AGENTS.find((agent) => agent.name === name);
}
