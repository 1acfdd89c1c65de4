import type { PipelineGraph, PipelineNode } from '../../../compiler/ir.js';
import type { LLMClient } from '../../../llm/index.js';
import type { ExecutionEnvironment } from '../environment/execution-environment.js';
import type { SessionConfigInput } from '../session/session-config.js';
import type { AgentTool } from '../tools/define-tool.js';
import type { ProviderStatus } from './configured-providers.js';
import type { ModelChoice } from './resolve-model.js';
import type { UsageLedger } from './usage-ledger.js';

/** What an environment factory is told about the node visit it makes an environment for. */
export interface AgentEnvironmentContext {
  node: PipelineNode;
  /** The run's working directory (a manager loop's child: its own). */
  workingDir: string;
  /** Secret variables the node and graph let through (`env_passthrough`). */
  envPassthrough: string[];
  /** The node's stage directory, where its `status.json` goes. */
  stageDir: string;
  /** Aborts when the node is cancelled or times out. */
  signal: AbortSignal;
}

export interface AgentBackendOptions {
  client: LLMClient;
  /** Where the agent works when the run says nothing (`RunOptions.workingDir`); default the process's. */
  workingDir?: string;
  /** Which providers can be called; default: those the client has an adapter for. */
  providers?: readonly ProviderStatus[];
  /** Books every model call (usage, cost, budget); default a new one without a budget. */
  ledger?: UsageLedger;
  /** Extra tools for every agent node (or per node), after the profile's: a same-named tool replaces one. */
  tools?: readonly AgentTool[] | ((node: PipelineNode) => readonly AgentTool[]);
  /**
   * Where the agents work instead of a local directory: one environment shared by every node visit (its
   * `cleanup()` runs after each), or a factory called per visit.
   */
  environment?: ExecutionEnvironment | ((context: AgentEnvironmentContext) => ExecutionEnvironment);
  /**
   * The pipeline, for its graph-level agent attributes (`env_passthrough`, `auto_compact`, `tool_hooks.*`);
   * the three fields below say the same for callers without the graph.
   */
  graph?: Pick<PipelineGraph, 'attrs' | 'extra'>;
  /** `--model` / `--provider`, for nodes that name neither (the engine already filled node attributes). */
  defaults?: ModelChoice;
  /** Graph-level attributes that apply to every node unless the node sets its own. */
  graphExtra?: Record<string, string>;
  graphEnvPassthrough?: string;
  /** The graph's `auto_compact`, for nodes that set none (default false: the session only warns). */
  graphAutoCompact?: boolean;
  /** Session settings for every node (a node's attributes win where they overlap). */
  session?: Partial<SessionConfigInput>;
  /** How often the stage directory is checked for a manager's `steering.md` (default 250 ms). */
  steeringPollMs?: number;
}
