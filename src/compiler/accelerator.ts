/**
 * Accelerator keys of human-gate choices: `[K] Label`, `K) Label`, `K - Label`, else the
 * first character of the label, uppercased. Routing compares labels with the prefix stripped, so an
 * outcome's `preferred_label` of `approve` matches an edge labelled `[A] Approve`.
 */

const BRACKET = /^\s*\[([^\]\s])\]\s*(.*)$/s;
const PAREN = /^\s*([A-Za-z0-9])\)\s+(.*)$/s;
const DASH = /^\s*([A-Za-z0-9])\s+-\s+(.*)$/s;

/**
 * Splits a label into its accelerator key (uppercased) and the label text without the prefix.
 *
 * @example
 * parseAcceleratorKey('[A] Approve'); // { key: 'A', label: 'Approve' }
 * parseAcceleratorKey('R) Reject');   // { key: 'R', label: 'Reject' }
 * parseAcceleratorKey('Proceed');     // { key: 'P', label: 'Proceed' }
 */
export function parseAcceleratorKey(label: string): { key: string; label: string } {
  for (const pattern of [BRACKET, PAREN, DASH]) {
    const match = pattern.exec(label);
    if (match) return { key: (match[1] as string).toUpperCase(), label: (match[2] as string).trim() };
  }
  const text = label.trim();
  return { key: text.charAt(0).toUpperCase(), label: text };
}

/** Strips an accelerator prefix only when one is written (no first-letter fallback). */
export function stripAcceleratorPrefix(label: string): string {
  for (const pattern of [BRACKET, PAREN, DASH]) {
    const match = pattern.exec(label);
    if (match) return (match[2] as string).trim();
  }
  return label.trim();
}

/** Canonical form for comparing labels: accelerator prefix stripped, trimmed, lowercased. */
export function normalizeLabel(label: string): string {
  return stripAcceleratorPrefix(label).toLowerCase();
}
