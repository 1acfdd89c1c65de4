import type { InspectionEvent } from 'xstate';
import type { PreparedAgents } from '../actors/acp/prepare-agent-backend.js';
import { withAgentBackends } from '../actors/acp/with-agent-backends.js';
import type {
  createRealRunServices,
  RealRunServices,
  RealRunSettings,
} from '../actors/codergen/real-run-services.js';
import { AutoApproveInterviewer } from '../actors/interviewers/auto-approve.js';
import type { Interviewer } from '../actors/interviewers/interviewer.js';
import { createDefaultRegistry, type HandlerRegistry } from '../actors/registry.js';
import { withDryRunHandlers } from '../actors/simulated/dry-run-handlers.js';
import type { Scenario } from '../actors/simulated/scenario.js';
import { createScenarioInterviewer } from '../actors/simulated/scenario-interviewer.js';
import { createSimulatedBackend } from '../actors/simulated/simulated-backend.js';
import { createSimulatedRouter } from '../actors/simulated/simulated-router.js';
import type { Diagnostic } from '../compiler/diagnostic.js';
import type { PipelineGraph } from '../compiler/ir.js';
import { missingInterviewer, type NodeServices } from '../machines/pipeline-services.js';
import { definedFields } from '../shared/defined-fields.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { RunRecordSink } from './mirrored-run-recorder.js';

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

/**
 * Model usage the engine reports and the budget it obeys (the agent backend keeps the books). When
 * `budgetSignal` aborts, the running node is stopped, the checkpoint written and the run ends `paused`.
 */
export interface RunAccounting {
  readonly budgetSignal?: AbortSignal;
  /** Run totals so far: written into every checkpoint (`usage`) and `pipeline.finalize`. */
  runTotals(): Record<string, unknown>;
  /** A node's latest visit totals (merged into its `node.complete`); undefined when it called no model. */
  nodeTotals(nodeId: string): Record<string, unknown> | undefined;
}

/**
 * What a run uses that has behaviour: its nodes' services (handlers, interviewer, backends, router, the
 * scenario), its accounts, where its record is kept besides its folder, and who hears it (the services
 * half of `RunOptions`; `RunSettings` is the other). Handed to the run's machine whole, as one `provide()`.
 */
export interface RunServices extends NodeServices {
  accounting?: RunAccounting;
  /** Keep the run's record in this sink too (a database), besides its run directory. */
  recordSink?: RunRecordSink;
  onEvent?: (event: PipelineEvent) => void;
  /** The pipeline's lint and scenario warnings, once, before the run's first event (also `PipelineRun.warnings`). */
  onWarnings?: (warnings: Diagnostic[]) => void;
  inspect?: (event: InspectionEvent) => void;
  /** Where the run's trace goes (`createTelemetry`; `--otel` or the OTEL_EXPORTER_OTLP_* variables): none, no trace. */
  telemetry?: Telemetry;
}

/**
 * A run's services as its nodes use them: a scenario answers the gates it scripts, the interviewer
 * (or, missing, the error saying so) the rest. Every service is named, so nothing else the caller's
 * options held reaches the machine.
 */
export function resolveRunServices(options: RunServices): RunServices {
  const { scenario } = options;
  return {
    registry: options.registry,
    interviewer: scenario
      ? createScenarioInterviewer(scenario, options.interviewer ?? missingInterviewer())
      : options.interviewer,
    backend: options.backend,
    llmRank: options.llmRank,
    scenario,
    random: options.random,
    accounting: options.accounting,
    recordSink: options.recordSink,
    onEvent: options.onEvent,
    onWarnings: options.onWarnings,
    inspect: options.inspect,
    telemetry: options.telemetry,
  };
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
 * const dry = createRunServices({ graph: compiled.graph, dryRun: true });
 * const { real, ...services } = createRunServices({ graph: compiled.graph, real: { settings, createRealRunServices } });
 * const run = startPipeline({ source, file, compiled, ...services, workingDir: settings.workingDir });
 */
export function createRunServices(
  options: RunServicesOptions,
): RunServices & { registry: HandlerRegistry; real?: RealRunServices } {
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
    ...definedFields({ interviewer, backend, llmRank: models.llmRank, scenario: options.scenario }),
    ...(real ? { real, accounting: real.accounting } : {}),
  };
}
