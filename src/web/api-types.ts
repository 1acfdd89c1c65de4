import type { RunViewJson } from '../shared/run-view-json.js';
import type {
  NodeDetailsJson,
  PipelineDescriptionJson,
  QuestionJson,
  ServerInfoJson,
} from '../shared/server-responses.js';

/**
 * The JSON the server answers with, as the web view reads it (docs/guides/server.md). Each is the
 * server's own type (`runView` returns a run's; the routes build the rest with `satisfies`), so this
 * view cannot lack or misname a field the server sends.
 */
export type RunInfo = RunViewJson;

export type Question = QuestionJson;
export type NodeDetails = NodeDetailsJson;
export type ServerInfo = ServerInfoJson;
export type PipelineDescription = PipelineDescriptionJson;
