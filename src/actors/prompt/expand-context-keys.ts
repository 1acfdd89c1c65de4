import type { ContextValues } from '../handler-types.js';

const CONTEXT_KEY_REFERENCE = /\{([A-Za-z_][\w.-]*)\}/g;

/** Strings as written; anything else as JSON so objects and arrays stay readable in a prompt. */
export function formatContextValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value) ?? String(value);
}

/**
 * Replace `{key}` with the context value, only where `key` is present in the context now (docs/semantics.md):
 * any other braces — JSON examples, code, `{unknown}` — stay exactly as written.
 *
 * @example
 * expandContextKeys('Fix {bug} in {file}', { bug: 'NPE' }) // 'Fix NPE in {file}'
 */
export function expandContextKeys(text: string, context: Readonly<ContextValues>): string {
  return text.replace(CONTEXT_KEY_REFERENCE, (whole, key: string) =>
    Object.hasOwn(context, key) ? formatContextValue(context[key]) : whole,
  );
}
