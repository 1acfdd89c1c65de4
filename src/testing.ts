/**
 * `attractor-pipelines/testing`: fakes for testing code built on Attractor — a scripted LLM adapter, cassettes,
 * scripted interviewers, scenario files and the simulated backend that `--dry-run` uses, and `attractor test`
 * as a library (`runPipelineTests`: docs/guides/testing-pipelines.md). Record and replay
 * middleware are product features and live in `attractor-pipelines/llm`. Explicit named exports only.
 *
 * @example
 * import { LLMClient } from 'attractor-pipelines/llm';
 * import { ScriptedAdapter } from 'attractor-pipelines/testing';
 * const client = new LLMClient({ adapters: [new ScriptedAdapter({ turns: [{ text: 'hi' }] })] });
 */

export { QueueInterviewer } from './actors/interviewers/queue.js';
export { RecordingInterviewer } from './actors/interviewers/recording.js';
export { loadScenario, parseScenario, Scenario } from './actors/simulated/scenario.js';
export { createSimulatedBackend } from './actors/simulated/simulated-backend.js';
export { type CassetteEntry, parseCassette } from './llm/middleware/cassette.js';
export { responseToStreamEvents } from './llm/response-to-stream-events.js';
export {
  ScriptedAdapter,
  type ScriptedAdapterOptions,
  type ScriptedCall,
  type ScriptedTurn,
  type ScriptedTurnSource,
} from './llm/testing/scripted-adapter.js';
export { parsePipelineTestFile } from './pipeline-tests/parse-test-file.js';
export type { RunObservation } from './pipeline-tests/run-observation.js';
export { type PipelineTestOptions, runPipelineTests } from './pipeline-tests/run-pipeline-tests.js';
export type { CaseResult } from './pipeline-tests/run-test-case.js';
export type { TestFileResult } from './pipeline-tests/run-test-file.js';
export { type PipelineCoverage, testCoverage } from './pipeline-tests/test-coverage.js';
export type { PipelineTestFile, TestCase } from './pipeline-tests/test-file-schema.js';
