/**
 * The JSON of the server's smaller answers that the web view reads (docs/guides/server.md). The
 * routes build them with `satisfies`, so a field the server adds or renames is a type error in web/
 * rather than a silent `undefined`. A run's own JSON is `RunViewJson` (run-view-json.ts).
 */

/** `GET /server-info`: what this server offers the web view. */
export interface ServerInfoJson {
  fork: boolean;
  allow_dirs: boolean;
  allow_tools: boolean;
}

/** Who the server takes the caller for (`GET /whoami`); the roles are a person's or token's. */
export interface WhoAmIJson {
  name: string;
  kind: 'person' | 'token' | 'server-token' | 'anonymous';
  roles: readonly string[];
}

/** One open human gate (`GET /pipelines/{id}/questions`). */
export interface QuestionJson {
  id: string;
  text: string;
  type: 'yes_no' | 'multiple_choice' | 'freeform' | 'confirmation';
  options: { key: string; label: string }[];
  /** Free text is an answer (a freeform gate, or one with `text_option`). */
  accepts_text: boolean;
  text_option?: string;
  stage: string;
  timeout_seconds?: number;
}

/** One node of a run (`GET /pipelines/{id}/nodes/{node}`); a file the node did not write is `null`. */
export interface NodeDetailsJson {
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

/** `POST /describe`: a pipeline's name, goal, declared parameters and its errors, before it runs. */
export interface PipelineDescriptionJson {
  name: string;
  goal: string;
  vars: { name: string; default?: string }[];
  errors: string[];
}
