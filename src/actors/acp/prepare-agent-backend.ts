import { loadPipeline } from '../../compiler/compile.js';
import type { ReadScope } from '../../compiler/files/read-scope.js';
import type { PipelineGraph } from '../../compiler/ir.js';
import type { CodergenBackend } from '../codergen-backend.js';
import { createAcpBackend } from './acp-backend.js';
import { loadAgentConfig } from './agent-config.js';
import { type AgentNode, preflightAgents } from './preflight-agents.js';
import { withAgentBackends } from './with-agent-backends.js';

export interface PreparedAgents {
  /** `fallback` wrapped so nodes with `agent` run through their ACP agent. */
  backend: CodergenBackend;
  /** The ACP backend alone, to wrap another fallback with `withAgentBackends`. */
  acp: CodergenBackend;
  agentNodes: AgentNode[];
  /** True when every codergen node has an agent: the run needs no LLM backend of its own. */
  coversAllCodergen: boolean;
}

export interface PrepareAgentsOptions {
  /** DOT source of the pipeline about to run. */
  source: string;
  file?: string;
  /** Where the pipeline may read the files it names (default: its folder and the working directory). */
  readScope?: ReadScope;
  workingDir: string;
  env: Readonly<Record<string, string | undefined>>;
  /** `--auto-approve`. */
  autoApprove: boolean;
  fallback: CodergenBackend;
}

function parse(options: PrepareAgentsOptions): PipelineGraph | undefined {
  try {
    return loadPipeline(options.source, {
      ...(options.file ? { file: options.file } : {}),
      ...(options.readScope ? { readScope: options.readScope } : {}),
    }).graph;
  } catch {
    // Not a pipeline at all: the run itself reports that, with its location.
    return undefined;
  }
}

/**
 * Before a run starts: find the codergen nodes that select an external agent, refuse the run if an
 * agent's binary is missing (AGENT_NOT_FOUND, naming the command and its install line), and build the
 * backend that routes those nodes to ACP. Undefined when no node selects an agent.
 */
export function prepareAgentBackend(options: PrepareAgentsOptions): PreparedAgents | undefined {
  const graph = parse(options);
  if (!graph) return undefined;
  const config = loadAgentConfig(options.workingDir, options.env);
  const agentNodes = preflightAgents(graph, config, options.env, options.workingDir);
  if (agentNodes.length === 0) return undefined;
  const codergen = graph.nodes.filter((node) => node.handler === 'codergen');
  const acp = createAcpBackend({
    config,
    env: options.env,
    autoApprove: options.autoApprove,
    workingDir: options.workingDir,
  });
  return {
    backend: withAgentBackends(options.fallback, acp),
    acp,
    agentNodes,
    coversAllCodergen: codergen.length === agentNodes.length,
  };
}
