import { expect } from 'vitest';
import { runCli } from '../../cli/run-cli.js';

/** Where a server keeps its tokens, as `attractor token` names it. */
export type StoreArgs = ['--data-dir', string] | ['--store', string];

/** `attractor token create` through the real CLI; returns the token printed on its last line. */
export async function createToken(
  where: StoreArgs,
  name: string,
  role: string,
  more: string[] = [],
): Promise<string> {
  const result = await runCli(['token', 'create', ...where, '--name', name, '--role', role, ...more]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const last = result.stdout.trimEnd().split('\n').at(-1) ?? '';
  expect(last).toMatch(/^attr_[A-Za-z0-9_-]{43}$/);
  return last;
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
