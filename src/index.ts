/**
 * Attractor's public API. Explicit named exports only: what is not listed here is internal.
 *
 * @example
 * import { compile, runPipeline } from 'attractor';
 * const { config } = compile(dotSource);            // the plain XState config that runs
 * const result = await runPipeline({ source: dotSource, file: 'pipeline.dot' });
 */

export type { CodergenBackend, CodergenRequest, CodergenResult } from './actors/codergen-backend.js';
// Handlers, interviewers, backends
export type { HandlerInput, HandlerServices, NodeHandler } from './actors/handler-types.js';
export { AutoApproveInterviewer } from './actors/interviewers/auto-approve.js';
export { CallbackInterviewer } from './actors/interviewers/callback.js';
export { ConsoleInterviewer } from './actors/interviewers/console.js';
export type {
  Answer,
  Interviewer,
  Question,
  QuestionOption,
  QuestionType,
} from './actors/interviewers/interviewer.js';
export { QueueInterviewer } from './actors/interviewers/queue.js';
export { RecordingInterviewer } from './actors/interviewers/recording.js';
export { createDefaultRegistry, HandlerRegistry } from './actors/registry.js';
export { createSimulatedBackend } from './actors/simulated-backend.js';
// Compiler: DOT → IR → transforms → validation → machine config
export {
  type CompiledPipeline,
  compile,
  type LoadedPipeline,
  type LoadOptions,
  loadPipeline,
} from './compiler/compile.js';
export { checkConditionSyntax, evaluateCondition, parseCondition } from './compiler/conditions/index.js';
export type { Diagnostic, Severity } from './compiler/diagnostic.js';
export { graphToJson } from './compiler/graph-to-json.js';
export type {
  EdgeAttrs,
  GraphAttrs,
  NodeAttrs,
  PipelineEdge,
  PipelineGraph,
  PipelineNode,
} from './compiler/ir.js';
export { lowerToMachineConfig } from './compiler/lower/lower-to-machine-config.js';
export type { MachineConfig } from './compiler/lower/machine-config.js';
export { type Outcome, OutcomeSchema, type StageStatus } from './compiler/outcome.js';
export { DotSyntaxError } from './compiler/parse/dot-syntax-error.js';
export { type ParseDotOptions, type ParseResult, parseDot } from './compiler/parse/parse-dot.js';
export { checkGoalGates, nextStep, routeFailure, selectEdge } from './compiler/routing.js';
export { applyStylesheet, parseStylesheet } from './compiler/stylesheet/index.js';
export {
  applyTransforms,
  registerTransform,
  type Transform,
  type TransformContext,
} from './compiler/transforms/index.js';
export { registerLintRule, unregisterLintRule } from './compiler/validate/lint-registry.js';
export type { LintRule } from './compiler/validate/lint-rule.js';
export { PipelineValidationError } from './compiler/validate/pipeline-validation-error.js';
export { hasErrors, validate, validateOrRaise } from './compiler/validate/validate.js';
// The unified LLM client (also `attractor/llm`)
export * from './llm/index.js';
export { type Checkpoint, CheckpointSchema, readCheckpoint } from './machines/checkpoint.js';
export {
  type CompiledMachine,
  compileMachine,
  createPipelineMachine,
  providePipeline,
} from './machines/compile-machine.js';
// Engine: run compiled machines as actors
export { resumePipeline, runPipeline, startPipeline } from './machines/engine.js';
export type { PipelineMachine } from './machines/pipeline-machine.js';
export { createGraphLookup } from './machines/pipeline-runtime.js';
export {
  DEFAULT_MAX_STEPS,
  type PipelineRun,
  type ResumeOptions,
  type RunOptions,
  type RunQuality,
  type RunResult,
  type StartOptions,
} from './machines/run-types.js';
export { loadScenario, parseScenario, Scenario, ScenarioSchema } from './machines/scenario.js';
// Errors and shared contracts
export { AttractorError, type SourceSpan } from './shared/errors.js';
export type { PipelineEvent } from './shared/pipeline-event.js';
