/**
 * Control characters a terminal acts on instead of showing: C0 but tab and newline (ESC starts colour,
 * cursor, title and clipboard sequences; CR overwrites the line), DEL, C1 (0x9b is a one-byte CSI), and
 * the bidirectional overrides that reorder what follows them.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every control character shown as its escape (`\x1b`, `\u202e`), for printing what a
 * pipeline supplied (its name, goal, labels, notes, questions) on a terminal: the text is read, never
 * obeyed.
 *
 * @example
 * printableText('evil\x1b]0;pwned\x07'); // 'evil\\x1b]0;pwned\\x07'
 */
export function printableText(text: string): string {
  return text.replace(CONTROL, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
  });
}

/** A copy of a JSON value (an event, a record) with every string in it made printable. */
export function printableJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (_key, item: unknown) =>
    typeof item === 'string' ? printableText(item) : item,
  );
}
