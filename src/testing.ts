/**
 * `attractor-pipelines/testing`: fakes for testing code built on Attractor — a scripted LLM adapter, record /
 * replay middleware for LLM sessions, scripted interviewers and scenario files for pipelines.
 *
 * @example
 * import { ScriptedAdapter } from 'attractor-pipelines/testing';
 * const client = new LLMClient({ adapters: [new ScriptedAdapter({ turns: [{ text: 'hi' }] })] });
 */

export { CallbackInterviewer } from './actors/interviewers/callback.js';
export { QueueInterviewer } from './actors/interviewers/queue.js';
export { RecordingInterviewer } from './actors/interviewers/recording.js';
export { loadScenario, parseScenario, Scenario } from './actors/simulated/scenario.js';
export { createSimulatedBackend } from './actors/simulated/simulated-backend.js';
export * from './llm/testing/index.js';
