import type { RunViewJson } from '../shared/run-view-json.js';

/**
 * The JSON the server answers with, as the web view reads it (README "The HTTP server"). A run is the
 * server's own type (`runView` returns it), so this view cannot lack a field the server sends.
 */
export type RunInfo = RunViewJson;

export interface Question {
  id: string;
  text: string;
  type: string;
  options: { key: string; label: string }[];
  accepts_text: boolean;
  text_option?: string;
  stage: string;
}

export interface NodeDetails {
  node_id: string;
  state: string;
  status: Record<string, unknown> | null;
  prompt: string | null;
  response: string | null;
  stdout: string | null;
  stderr: string | null;
  /** What the node's agent changed in its working tree (a unified diff), when it is a git work tree. */
  diff: string | null;
}

export interface ServerInfo {
  fork: boolean;
  allow_dirs: boolean;
  allow_tools: boolean;
}

export interface PipelineDescription {
  name: string;
  goal: string;
  vars: { name: string; default?: string }[];
  errors: string[];
}
