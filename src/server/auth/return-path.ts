import * as z from 'zod';

/** Where a sign-in lands when it was not asked to land anywhere (or asked for somewhere unsafe). */
export const HOME_PATH = '/';

const MAX_LENGTH = 2048;
const ORIGIN = 'http://return-path.invalid';

/**
 * A place on this server to come back to after signing in: a path that starts with one `/`, in
 * printable ASCII only. That refuses what turns a redirect into an open one: `//evil` and `/\evil`
 * (browsers read both as another host), an absolute URL, and the tabs, newlines and spaces browsers
 * strip or fold before reading a URL (`/\t/evil` is `//evil` to them); resolving it must keep the origin.
 */
export const ReturnPathSchema = z
  .string()
  .max(MAX_LENGTH)
  .regex(/^\/(?![/\\])[\x21-\x7e]*$/, 'a path on this server, starting with one "/"')
  .refine((value) => !value.includes('\\'), 'no backslashes')
  .refine((value) => new URL(value, ORIGIN).origin === ORIGIN, 'stays on this server');

/** The return path asked for if it is safe, else `undefined` (the caller lands at `HOME_PATH`). */
export function safeReturnPath(asked: unknown): string | undefined {
  const parsed = ReturnPathSchema.safeParse(asked);
  return parsed.success ? parsed.data : undefined;
}
