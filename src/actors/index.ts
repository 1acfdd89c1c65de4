/** The public surface of actors/: node handlers, interviewers, backends and the helpers they share. */
export type { CodergenBackend, CodergenRequest, CodergenResult } from './codergen-backend.js';
export {
  createHandlerActor,
  createHandlerActors,
  type HandlerActorLogic,
  handlerActorName,
} from './handler-actor.js';
export { HandlerNotFoundError } from './handler-not-found-error.js';
export type {
  BranchResult,
  ChildPipelineHandle,
  ChildPipelineStatus,
  CompletedStage,
  ContextValues,
  HandlerInput,
  HandlerServices,
  NodeHandler,
} from './handler-types.js';
export { codergenHandler } from './handlers/codergen.js';
export { conditionalHandler } from './handlers/conditional.js';
export { exitHandler } from './handlers/exit.js';
export { fanInHandler } from './handlers/fan-in.js';
export { humanGateQuestion } from './handlers/human-gate-question.js';
export { DEFAULT_MAX_CYCLES, DEFAULT_POLL_INTERVAL_MS, managerLoopHandler } from './handlers/manager-loop.js';
export { parallelHandler } from './handlers/parallel.js';
export { startHandler } from './handlers/start.js';
export { createToolHandler, type ToolHandlerOptions, toolHandler } from './handlers/tool.js';
export { waitHumanHandler } from './handlers/wait-human.js';
export { AutoApproveInterviewer } from './interviewers/auto-approve.js';
export { type AskCallback, CallbackInterviewer } from './interviewers/callback.js';
export { ConsoleInterviewer, type ConsoleInterviewerOptions } from './interviewers/console.js';
export type {
  Answer,
  AnswerValue,
  Interviewer,
  Question,
  QuestionOption,
  QuestionType,
} from './interviewers/interviewer.js';
export { matchOption } from './interviewers/match-option.js';
export { QueueInterviewer } from './interviewers/queue.js';
export { type InterviewRecord, RecordingInterviewer } from './interviewers/recording.js';
export { resolveScriptedAnswer } from './interviewers/resolve-scripted-answer.js';
export { evaluateJoin, type JoinTally, type JoinVerdict } from './parallel/evaluate-join.js';
export {
  type ParallelResult,
  ParallelResultSchema,
  ParallelResultsSchema,
} from './parallel/parallel-result.js';
export { rankBranchResults } from './parallel/rank-branch-results.js';
export { expandContextKeys } from './prompt/expand-context-keys.js';
export { type ContextSummaryInput, renderContextSummary } from './prompt/render-context-summary.js';
export { createDefaultRegistry, HandlerRegistry } from './registry.js';
export { createSimulatedBackend } from './simulated-backend.js';
export {
  outcomeToStatusFile,
  readStatusFile,
  type StatusFile,
  StatusFileSchema,
  statusFileToOutcome,
  writeStatusFile,
} from './status-file.js';
export { StatusFileError } from './status-file-error.js';
export { filterSecretEnv, isSecretEnvName, parseEnvPassthrough } from './tool/filter-secret-env.js';
export { type RunToolOptions, runTool, type ToolRunResult } from './tool/run-tool.js';
