/**
 * Attractor's public API. Explicit named exports only: what is not listed here is internal. The LLM
 * client is `attractor/llm`; test doubles (scripted adapter, record/replay, queue interviewer,
 * scenarios) are `attractor/testing`.
 *
 * @example
 * import { compileMachine, pipelineInput, providePipeline } from 'attractor';
 * import { createActor } from 'xstate';
 * const compiled = compileMachine(dotSource);
 * const actor = createActor(providePipeline(compiled, { backend, interviewer }), {
 *   input: pipelineInput(compiled, { runDir: '/tmp/run' }),
 * }).start();
 */

// Handlers, interviewers, backends
export type { CodergenBackend, CodergenRequest, CodergenResult } from './actors/codergen-backend.js';
export type { HandlerHook } from './actors/handler-hook.js';
export type { HandlerInput, HandlerServices, NodeHandler } from './actors/handler-types.js';
export { createTimingHook, type NodeTiming, type TimingHookOptions } from './actors/hooks/timing-hook.js';
export { askMultiple } from './actors/interviewers/ask-multiple.js';
export { AutoApproveInterviewer } from './actors/interviewers/auto-approve.js';
export { CallbackInterviewer } from './actors/interviewers/callback.js';
export { type CheckedAnswer, checkAnswer } from './actors/interviewers/check-answer.js';
export { confirm } from './actors/interviewers/confirm.js';
export { ConsoleInterviewer } from './actors/interviewers/console.js';
export type {
  Answer,
  AnswerValue,
  Interviewer,
  Question,
  QuestionOption,
  QuestionType,
} from './actors/interviewers/interviewer.js';
export { QueueInterviewer } from './actors/interviewers/queue.js';
export { RecordingInterviewer } from './actors/interviewers/recording.js';
export { type ContextLogEntry, PipelineContext } from './actors/pipeline-context.js';
export { createDefaultRegistry, HandlerRegistry } from './actors/registry.js';
export { loadScenario, parseScenario, Scenario } from './actors/simulated/scenario.js';
export { createSimulatedBackend } from './actors/simulated/simulated-backend.js';
// The coding agent's tools and execution environment: custom tools, other environments, hooks
export type {
  DirEntry,
  ExecOptions,
  ExecResult,
  ExecutionEnvironment,
  FileChange,
  GrepMatch,
  GrepOptions,
  GrepResult,
} from './agent/environment/execution-environment.js';
export { FileNotFoundError } from './agent/environment/file-not-found-error.js';
export {
  LocalExecutionEnvironment,
  type LocalExecutionEnvironmentOptions,
} from './agent/environment/local-execution-environment.js';
export { PathOutsideWorkdirError } from './agent/environment/path-outside-workdir-error.js';
export { runToolHooks, type ToolCallMeta, type ToolHooks } from './agent/hooks/run-tool-hooks.js';
export {
  type AgentTool,
  type AgentToolResult,
  defineTool,
  type ToolContext,
} from './agent/tools/define-tool.js';
export { type RunAgentToolResult, runAgentTool } from './agent/tools/run-agent-tool.js';
export { BUILTIN_TOOLS, createDefaultTools, ToolRegistry } from './agent/tools/tool-registry.js';
export { truncateOutput } from './agent/truncation/truncate-output.js';
export type { TruncationLimits } from './agent/truncation/truncation-limits.js';
// Compiler: DOT → IR → transforms → validation → machine config
export { parseAcceleratorKey } from './compiler/accelerator.js';
export {
  type CompiledPipeline,
  compile,
  type LoadedPipeline,
  type LoadOptions,
  loadPipeline,
} from './compiler/compile.js';
export { evaluateCondition } from './compiler/conditions/index.js';
export type { Diagnostic, Severity } from './compiler/diagnostic.js';
export { incomingEdges, outgoingEdges } from './compiler/graph-edges.js';
export {
  type EdgeAttrs,
  type GraphAttrs,
  type NodeAttrs,
  type PipelineEdge,
  type PipelineGraph,
  type PipelineNode,
  SHAPE_HANDLERS,
} from './compiler/ir.js';
export type { MachineConfig } from './compiler/lower/machine-config.js';
export { isSuccessStatus, type Outcome, OutcomeSchema, type StageStatus } from './compiler/outcome.js';
export { DotSyntaxError } from './compiler/parse/dot-syntax-error.js';
export {
  checkGoalGates,
  nextStep,
  type RoutingStep,
  routeFailure,
  selectEdge,
} from './compiler/routing.js';
export { registerTransform, type Transform, type TransformContext } from './compiler/transforms/index.js';
export { registerLintRule, unregisterLintRule } from './compiler/validate/lint-registry.js';
export type { LintRule } from './compiler/validate/lint-rule.js';
export { PipelineValidationError } from './compiler/validate/pipeline-validation-error.js';
export { validate } from './compiler/validate/validate.js';
export {
  type CompiledMachine,
  type CompileMachineOptions,
  compileMachine,
} from './machines/compile-machine.js';
export type { PipelineMachineContext, PipelineMachineInput } from './machines/machine-context.js';
export type { MachineEmitted } from './machines/machine-events.js';
export { pipelineInput } from './machines/pipeline-input.js';
export type { PipelineMachine, PipelineMachineEvent } from './machines/pipeline-machine.js';
export type { PipelineServices } from './machines/pipeline-services.js';
export { type RestoreOptions, restorePipeline } from './machines/restore-pipeline.js';
// The pipeline machine: compile, provide services, run as an XState actor
export { type Checkpoint, readCheckpoint } from './run/checkpoint.js';
export {
  type CheckpointFile,
  latestCheckpoint,
  listCheckpoints,
  saveCheckpoint,
} from './run/checkpoint-files.js';
// Engine: whole runs with a run directory, event log, checkpoints and resume
export { resumePipeline, runPipeline, startPipeline } from './run/engine.js';
export { createPipelineMachine, providePipeline } from './run/provide-pipeline.js';
export type {
  PipelineRun,
  ResumeOptions,
  RunOptions,
  RunQuality,
  RunResult,
  StartOptions,
} from './run/run-types.js';
// Errors and shared contracts
export { type ArtifactInfo, ArtifactStore } from './shared/artifact-store.js';
export { AttractorError, type SourceSpan } from './shared/errors.js';
// Events: the kinds, their data and a line of events.jsonl, as types and as zod schemas.
export { eventDataSchemas } from './shared/events/event-data-schemas.js';
export { pipelineEventLineSchema } from './shared/events/event-line-schema.js';
export {
  type EmitEvent,
  type EventData,
  type EventKind,
  isEvent,
  onEventOf,
  type PipelineEvent,
  type PipelineEventOf,
} from './shared/pipeline-event.js';
