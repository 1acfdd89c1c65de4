/** How much of a user's value a diagnostic quotes: enough to recognise it, short enough for one line. */
export const EXCERPT_LENGTH = 80;

/**
 * A user-supplied value as quoted in a message: unchanged when short, else its start and its length, so a
 * 100 KB attribute does not become a 100 KB error line. Never splits a surrogate pair.
 *
 * @example
 * excerpt('x'.repeat(1000)); // 'xxx…xxx… (1000 characters)' (80 x's)
 */
export function excerpt(text: string, max: number = EXCERPT_LENGTH): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length} characters)`;
}
