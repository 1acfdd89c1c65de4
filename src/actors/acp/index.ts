export { type AcpBackendOptions, createAcpBackend } from './acp-backend.js';
export { AGENT_CONFIG_FILE, type AgentConfig, loadAgentConfig } from './agent-config.js';
export { BUILTIN_AGENTS, type BuiltinAgent, GENERIC_AGENT } from './builtin-agents.js';
export { agentNodes, preflightAgents } from './preflight-agents.js';
export { type PreparedAgents, prepareAgentBackend } from './prepare-agent-backend.js';
export { resolveAgentCommand } from './resolve-agent-command.js';
export { withAgentBackends } from './with-agent-backends.js';
