import type { PipelineGraph } from '../compiler/ir.js';
import { parseEnvPassthrough } from '../shared/process/filter-secret-env.js';
import { ApiError } from './api-error.js';

/**
 * What a server or worker runs on: its model providers' keys and organisations, the token clients
 * send (`ATTRACTOR_TOKEN`), and the store's credentials (`DATABASE_URL`, libpq's `PG*`). Base URLs
 * too: not secret, but where the keys go.
 */
const SERVER_NAMES = new Set([
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'OPENAI_ORG_ID',
  'OPENAI_PROJECT_ID',
  'OPENAI_COMPATIBLE_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'ATTRACTOR_TOKEN',
  'DATABASE_URL',
]);

/** Whether a name is one of the server's own (case-insensitive: a near miss is refused as well). */
export function isServerSecretName(name: string): boolean {
  return SERVER_NAMES.has(name.toUpperCase()) || /_BASE_URL$/i.test(name) || /^PG/i.test(name);
}

/** Every name a graph's `env_passthrough` (graph and nodes) names that is the server's own. */
export function serverSecretsPassedThrough(graph: PipelineGraph): string[] {
  const named = [graph.attrs.env_passthrough, ...graph.nodes.map((n) => n.attrs.env_passthrough)];
  const refused = named.flatMap((value) => parseEnvPassthrough(value)).filter(isServerSecretName);
  return [...new Set(refused)];
}

/**
 * A submitted pipeline never gets the server's keys or the store's credentials: `env_passthrough`
 * naming one is refused at submission (400), naming them. (The process also refuses them at run time,
 * for child pipelines and runs queued elsewhere: `refusePassthrough` in `attractor serve` and `worker`.)
 */
export function refuseServerSecrets(graph: PipelineGraph): void {
  const refused = serverSecretsPassedThrough(graph);
  if (refused.length === 0) return;
  throw new ApiError(
    400,
    'SECRET_NOT_ALLOWED',
    `env_passthrough names ${refused.join(', ')}: a server never passes its own provider keys, base URLs, token or store credentials to a submitted pipeline. Remove ${refused.length === 1 ? 'it' : 'them'} from env_passthrough.`,
  );
}
