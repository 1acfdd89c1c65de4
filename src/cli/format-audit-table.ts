import type { AuditEntry } from '../server/audit/audit-entry.js';

const HEADERS = ['AT', 'WHO', 'ACTION', 'RUN', 'ABOUT', 'OUTCOME'] as const;

/** The trail as a plain table, one entry a row, columns padded to their widest cell. */
export function formatAuditTable(entries: readonly AuditEntry[]): string {
  const rows = entries.map((e) => [
    e.at,
    e.who,
    e.action,
    e.run_id ?? '-',
    about(e),
    e.outcome === 'ok' ? `ok ${e.status}` : `refused ${e.status}${e.error_code ? ` ${e.error_code}` : ''}`,
  ]);
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ');
  return `${[HEADERS, ...rows].map(line).join('\n')}\n`;
}

/** What the action was about beyond its run: the question, the node, the new run, the token and its role. */
function about(e: AuditEntry): string {
  const parts = [
    e.question_id !== undefined ? `question ${e.question_id}` : undefined,
    e.node !== undefined ? `node ${e.node}` : undefined,
    e.new_run_id !== undefined ? `new run ${e.new_run_id}` : undefined,
    e.subject,
    e.role !== undefined ? `role ${e.role}` : undefined,
  ].filter((p) => p !== undefined);
  return parts.length > 0 ? parts.join(', ') : '-';
}
