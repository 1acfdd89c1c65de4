import type { PreparedAgents } from '../actors/acp/prepare-agent-backend.js';
import { withAgentBackends } from '../actors/acp/with-agent-backends.js';
import type {
  createRealRunServices,
  RealRunServices,
  RealRunSettings,
} from '../actors/codergen/real-run-services.js';
import type { CodergenBackend } from '../actors/codergen-backend.js';
import type { HandlerServices } from '../actors/handler-types.js';
import { AutoApproveInterviewer } from '../actors/interviewers/auto-approve.js';
import type { Interviewer } from '../actors/interviewers/interviewer.js';
import { createDefaultRegistry, type HandlerRegistry } from '../actors/registry.js';
import { withDryRunHandlers } from '../actors/simulated/dry-run-handlers.js';
import type { Scenario } from '../actors/simulated/scenario.js';
import { createSimulatedBackend } from '../actors/simulated/simulated-backend.js';
import { createSimulatedRouter } from '../actors/simulated/simulated-router.js';
import type { PipelineGraph } from '../compiler/ir.js';
import type { RunAccounting } from './run-types.js';

export interface RunServicesOptions {
  /** The pipeline the run executes, as compiled for it (`compileRun`). */
  graph: PipelineGraph;
  /** Nothing external runs: a simulated model, tool commands recorded not run (gates: see `autoApprove`). */
  dryRun?: boolean;
  /** Scripted outcomes and answers per node; the model is simulated, tools run. */
  scenario?: Scenario;
  /** Every gate takes its first option. */
  autoApprove?: boolean;
  /** Who answers gates otherwise: a terminal, the TUI, an HTTP client. */
  interviewer?: Interviewer;
  /**
   * A run that calls real models (neither `dryRun` nor `scenario`): where its agents work, its keys,
   * defaults and budget, and `createRealRunServices` to build its services from them (passed in rather
   * than imported, so that a run calling no model never loads the LLM client and the coding agent: a
   * third of a dry run's start-up). Without it such a run has no backend, and its first LLM node fails
   * saying so.
   */
  real?: { settings: RealRunSettings; createRealRunServices: typeof createRealRunServices };
  /** External ACP agents prepared for the graph's `agent` nodes (`prepareAgentBackend`). */
  agents?: PreparedAgents;
  /** Handler types and hooks of the embedder's (default: the built-in handlers). */
  registry?: HandlerRegistry;
}

/** What a run's nodes use: spread into `startPipeline` / `resumePipeline` options. */
export interface RunServices {
  registry: HandlerRegistry;
  interviewer?: Interviewer;
  backend?: CodergenBackend;
  llmRank?: NonNullable<HandlerServices['llmRank']>;
  scenario?: Scenario;
  accounting?: RunAccounting;
  workingDir?: string;
}

/**
 * The services of one run, built the same way by the CLI, the server and embedders: a dry or scenario
 * run simulates its model on purpose (the library never does on its own); a real run gets the coding
 * agent, the router model and the budget (`createRealRunServices`); nodes with an external agent go
 * through ACP; gates are answered by the interviewer given, or take their first option (`autoApprove`:
 * the CLI's `--dry-run` asks for it, a dry run over HTTP leaves gates to a person).
 *
 * @example
 * const compiled = compileRun({ source, file });
 * const services = createRunServices({ graph: compiled.graph, dryRun: true });
 * const real = createRunServices({ graph: compiled.graph, real: { settings, createRealRunServices } });
 * const run = startPipeline({ source, file, compiled, ...services });
 */
export function createRunServices(options: RunServicesOptions): RunServices & { real?: RealRunServices } {
  const simulated = options.dryRun === true || options.scenario !== undefined;
  // Nodes driven by external agents need no model of ours: a run whose every LLM node has one needs no keys.
  const real =
    !simulated && options.real && !options.agents?.coversAllCodergen
      ? options.real.createRealRunServices(options.graph, options.real.settings)
      : undefined;
  const models: Pick<RunServices, 'backend' | 'llmRank'> = real
    ? { backend: real.backend, llmRank: real.llmRank }
    : simulated
      ? { backend: createSimulatedBackend(), llmRank: createSimulatedRouter() }
      : {};
  // A dry run starts no agent.
  const backend =
    options.agents && !options.dryRun
      ? withAgentBackends(models.backend ?? createSimulatedBackend(), options.agents.acp)
      : models.backend;
  const registry = options.registry ?? createDefaultRegistry();
  const interviewer = options.autoApprove ? new AutoApproveInterviewer() : options.interviewer;
  return {
    registry: options.dryRun ? withDryRunHandlers(registry) : registry,
    ...(interviewer ? { interviewer } : {}),
    ...(backend ? { backend } : {}),
    ...(models.llmRank ? { llmRank: models.llmRank } : {}),
    ...(options.scenario ? { scenario: options.scenario } : {}),
    ...(real ? { real, accounting: real.accounting, workingDir: real.workingDir } : {}),
  };
}
