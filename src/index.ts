/**
 * Attractor's public API: what an application embedding the engine needs to run, resume, compile and
 * observe pipelines, answer their gates and add its own handlers. Explicit named exports only; what is not
 * listed is internal. The rest lives in subpaths: `attractor-pipelines/compiler` (parser, transforms, lint rules,
 * routing functions, the graph types), `attractor-pipelines/agent` (the coding agent), `attractor-pipelines/llm` (the LLM
 * client) and `attractor-pipelines/testing` (scripted adapters, scenarios, scripted interviewers). Every symbol is
 * exported from exactly one place; `docs/api-report.md` lists them all and a test keeps it true.
 *
 * @example
 * import { compileMachine, pipelineInput, providePipeline } from 'attractor-pipelines';
 * import { createActor } from 'xstate';
 * const compiled = compileMachine(dotSource);
 * const actor = createActor(providePipeline(compiled, { backend, interviewer }), {
 *   input: pipelineInput(compiled, { runDir: '/tmp/run' }),
 * }).start();
 */

// Handlers: your own node types, hooks and the LLM backend they call
export type { CodergenBackend, CodergenRequest, CodergenResult } from './actors/codergen-backend.js';
export type { HandlerHook } from './actors/handler-hook.js';
export type { HandlerInput, HandlerServices, NodeHandler } from './actors/handler-types.js';
export { createTimingHook, type NodeTiming, type TimingHookOptions } from './actors/hooks/timing-hook.js';
// Gates: interviewers
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
export { type ContextLogEntry, PipelineContext } from './actors/pipeline-context.js';
export { createDefaultRegistry, HandlerRegistry } from './actors/registry.js';
// Compiling: DOT source to a pipeline, and to an XState machine
export {
  type CompiledPipeline,
  compile,
  type LoadedPipeline,
  type LoadOptions,
  loadPipeline,
} from './compiler/compile.js';
export type { Diagnostic, Severity } from './compiler/diagnostic.js';
export { isSuccessStatus, type Outcome, OutcomeSchema, type StageStatus } from './compiler/outcome.js';
// Errors
export { DotSyntaxError } from './compiler/parse/dot-syntax-error.js';
export { PipelineValidationError } from './compiler/validate/pipeline-validation-error.js';
export {
  type CompiledMachine,
  type CompileMachineOptions,
  compileMachine,
} from './machines/compile-machine.js';
export type { PipelineMachineInput } from './machines/machine-context.js';
export type { MachineEmitted } from './machines/machine-events.js';
export { pipelineInput } from './machines/pipeline-input.js';
export type { PipelineMachine } from './machines/pipeline-machine.js';
export type { PipelineMachineEvent } from './machines/pipeline-machine-event.js';
export type { PipelineServices } from './machines/pipeline-services.js';
export { type RestoreOptions, restorePipeline } from './machines/restore-pipeline.js';
export { type Checkpoint, readCheckpoint } from './run/checkpoint.js';
export { type CheckpointFile, latestCheckpoint, listCheckpoints } from './run/checkpoint-files.js';
// Whole runs: a run directory, an event log, checkpoints and resume
export { resumePipeline, runPipeline, startPipeline } from './run/engine.js';
// The pipeline machine as an actor of your own: services, input, restore
export { createPipelineMachine, providePipeline } from './run/provide-pipeline.js';
export type {
  PipelineRun,
  ResumeOptions,
  RunOptions,
  RunQuality,
  RunResult,
  StartOptions,
} from './run/run-types.js';
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
