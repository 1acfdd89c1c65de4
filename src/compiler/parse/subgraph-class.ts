/**
 * The stylesheet class a subgraph label gives its nodes:
 * lowercase, spaces to hyphens, everything but `[a-z0-9-]` dropped. "Code Review" → "code-review".
 * Empty when nothing is left.
 */
export function subgraphClass(label: string): string {
  return label
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/[^a-z0-9-]/g, '');
}
