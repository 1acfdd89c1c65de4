import { InvalidArgumentError } from 'commander';

/** Commander parser for repeatable `--set name=value`: collects into one record; a malformed pair exits 2. */
export function parseSetFlag(pair: string, previous: Record<string, string> = {}): Record<string, string> {
  const eq = pair.indexOf('=');
  const name = eq === -1 ? '' : pair.slice(0, eq).trim();
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new InvalidArgumentError('Expected name=value.');
  return { ...previous, [name]: pair.slice(eq + 1) };
}

/** `fork --set key=value`: a parameter's name, or any context key (dotted: `vars.env`, `plan.summary`). */
export function parseContextSetFlag(
  pair: string,
  previous: Record<string, string> = {},
): Record<string, string> {
  const eq = pair.indexOf('=');
  const key = eq === -1 ? '' : pair.slice(0, eq).trim();
  if (!/^[A-Za-z_][\w.-]*$/.test(key)) throw new InvalidArgumentError('Expected key=value.');
  return { ...previous, [key]: pair.slice(eq + 1) };
}
