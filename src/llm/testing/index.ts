/** Test helpers for code that uses the LLM client (re-exported by `attractor-pipelines/testing`). */

export { type CassetteEntry, parseCassette } from '../middleware/cassette.js';
export { RecordMiddleware, type RecordMiddlewareOptions } from '../middleware/record-middleware.js';
export { ReplayMiddleware, type ReplayMiddlewareOptions } from '../middleware/replay-middleware.js';
export { responseToStreamEvents } from '../response-to-stream-events.js';
export {
  ScriptedAdapter,
  type ScriptedAdapterOptions,
  type ScriptedCall,
  type ScriptedTurn,
  type ScriptedTurnSource,
} from './scripted-adapter.js';
