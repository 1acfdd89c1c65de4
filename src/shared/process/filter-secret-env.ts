/**
 * Names that look like credentials: `*_API_KEY`, `*_SECRET`,
 * `*_TOKEN`, `*_PASSWORD`, `*_CREDENTIAL(S)`, `AWS_*KEY*`, `DATABASE_URL`, `*_DATABASE_URL`, `GITHUB_TOKEN`, `GH_TOKEN`,
 * `NPM_TOKEN`, `DOCKER_*`. Matched case-insensitively, and the bare names (`API_KEY`, `TOKEN`, …) count
 * too: a leaked secret costs more than a missing variable, which `env_passthrough` restores.
 */
const SECRET_PATTERNS: readonly RegExp[] = [
  /^(.*_)?API_KEY$/i,
  /^(.*_)?SECRET$/i,
  /^(.*_)?TOKEN$/i,
  /^(.*_)?PASSWORD$/i,
  // docs/semantics.md S14 adds `*_CREDENTIAL`; the plural holds secrets just as often.
  /^(.*_)?CREDENTIALS?$/i,
  /^AWS_.*KEY/i,
  /^(.*_)?DATABASE_URL$/i,
  /^DOCKER_/i,
];

export const isSecretEnvName = (name: string): boolean =>
  SECRET_PATTERNS.some((pattern) => pattern.test(name));

/** `"GH_TOKEN, NPM_TOKEN"` or `"GH_TOKEN NPM_TOKEN"` → names. */
export const parseEnvPassthrough = (value: string | undefined): string[] =>
  (value ?? '').split(/[\s,]+/).filter((name) => name.length > 0);

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
    if (value === undefined) continue;
    if (keep.has(name) || !isSecretEnvName(name)) result[name] = value;
  }
  return result;
}
