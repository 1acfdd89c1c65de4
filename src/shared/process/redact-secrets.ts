import { isSecretEnvName } from './filter-secret-env.js';

/** Shorter values are too common to replace (`1`, `true`): no real credential is that short. */
const MIN_SECRET_CHARS = 8;

/** What a command's output shows instead of a secret it was given. */
export const redactedMark = (name: string): string => `[redacted ${name}]`;

/**
 * The secrets a pipeline let through by name (`env_passthrough`): a command may use them, but what it
 * prints goes into events, checkpoints, stage files and the web view, where they must not appear.
 */
export function passedSecrets(
  env: Readonly<Record<string, string | undefined>>,
  passthrough: readonly string[],
): ReadonlyMap<string, string> {
  const secrets = new Map<string, string>();
  for (const name of passthrough) {
    const value = env[name];
    if (value !== undefined && value.length >= MIN_SECRET_CHARS && isSecretEnvName(name))
      secrets.set(name, value);
  }
  return secrets;
}

/** `text` with every secret's value replaced by its mark. */
export function redactSecrets(text: string, secrets: ReadonlyMap<string, string>): string {
  let result = text;
  for (const [name, value] of secrets) result = result.replaceAll(value, redactedMark(name));
  return result;
}
