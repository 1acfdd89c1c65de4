/**
 * Names that look like credentials, matched case-insensitively anywhere in the name: `*API_KEY*`,
 * `*SECRET*`, `*TOKEN*`, `*PASSWORD*` (and `PASSWD`, `PASSPHRASE`), `*PRIVATE_KEY*`, `*CREDENTIAL*`, a
 * name ending in `_KEY` or holding `AUTH` as a word, every `PG*` (libpq's password, host, user, service
 * file), `DATABASE_URL` and `*_DATABASE_URL`, `DOCKER_*`, and the clouds' variables (`AWS_*`, `AZURE_*`,
 * `ARM_*`, `GOOGLE_APPLICATION_CREDENTIALS`, `GOOGLE_CLOUD_*`, `GCP_*`, `GCLOUD_*`, `CLOUDSDK_*`). Wide
 * on purpose: a leaked secret costs more than a missing variable, which `env_passthrough` restores.
 */
const SECRET_PATTERNS: readonly RegExp[] = [
  /API_?KEY/i,
  /SECRET/i,
  /TOKEN/i,
  /PASSWORD|PASSWD|PASSPHRASE/i,
  /PRIVATE_?KEY/i,
  // docs/semantics.md S14 names `*_CREDENTIAL`; `GOOGLE_APPLICATION_CREDENTIALS` names a key file.
  /CREDENTIAL/i,
  /(^|_)KEY$/i,
  /(^|_)AUTH(_|$)/i,
  /^PG/i,
  /^(.*_)?DATABASE_URL$/i,
  /^DOCKER_/i,
  /^(AWS|AZURE|ARM|GCP|GCLOUD|CLOUDSDK|GOOGLE_CLOUD)_/i,
];

export const isSecretEnvName = (name: string): boolean =>
  SECRET_PATTERNS.some((pattern) => pattern.test(name));

/** `"GH_TOKEN, NPM_TOKEN"` or `"GH_TOKEN NPM_TOKEN"` → names. */
export const parseEnvPassthrough = (value: string | undefined): string[] =>
  (value ?? '').split(/[\s,]+/).filter((name) => name.length > 0);

let refusedToPipelines: (name: string) => boolean = () => false;

/**
 * For a process that runs pipelines others submit (`attractor serve`, `attractor worker`): names no
 * command of it ever gets, whatever `env_passthrough` says (the process's own keys and credentials).
 * Set at start and undone by the returned function when the process stops serving (a CLI command run
 * in-process, as tests do, must not leave its refusals to what runs after it); submissions naming them
 * are refused before that (server/server-secret-names.ts).
 */
export function refusePassthrough(refused: (name: string) => boolean): () => void {
  const before = refusedToPipelines;
  refusedToPipelines = refused;
  return () => {
    refusedToPipelines = before;
  };
}

/**
 * The environment a tool node or agent shell gets: `env` without secrets, except the names in
 * `passthrough` (exact, case-sensitive), which a pipeline lists in `env_passthrough` (docs/semantics.md).
 *
 * @example
 * filterSecretEnv({ PATH: '/bin', GH_TOKEN: 't', OPENAI_API_KEY: 'k' }, ['GH_TOKEN'])
 * // { PATH: '/bin', GH_TOKEN: 't' }
 */
export function filterSecretEnv(
  env: Readonly<Record<string, string | undefined>>,
  passthrough: readonly string[] = [],
): Record<string, string> {
  const keep = new Set(passthrough);
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || refusedToPipelines(name)) continue;
    if (keep.has(name) || !isSecretEnvName(name)) result[name] = value;
  }
  return result;
}
