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
export type RunInfo = RunViewJson & Partial<RunIdentities>;

/**
 * Who did what to a run: `token`, `anonymous` or an OS user, as the server records them. Read when
 * present: a server that records none shows none.
 */
export interface RunIdentities {
  started_by: string;
  cancelled_by: string;
  resumed_by: string;
  forked_by: string;
}

export type Question = QuestionJson;
export type NodeDetails = NodeDetailsJson;
export type ServerInfo = ServerInfoJson;
export type PipelineDescription = PipelineDescriptionJson;
