import type { RunRecord } from './run-record.js';
import type { ListRunsQuery, RunPage } from './run-store.js';

const MAX_PAGE = 500;

/**
 * One page of runs, newest first, from every record a store holds: the paging every `RunStore` answers
 * `list` with, so the file and PostgreSQL stores page alike. The cursor is the last run's id, opaque.
 */
export function pageRuns(records: Iterable<RunRecord>, query: ListRunsQuery = {}): RunPage {
  const limit = Math.min(Math.max(query.limit ?? 50, 1), MAX_PAGE);
  const all = [...records]
    .filter((r) => query.status === undefined || r.status === query.status)
    .sort(newestFirst);
  const start = query.cursor ? all.findIndex((r) => cursorOf(r) === query.cursor) + 1 : 0;
  const runs = all.slice(start, start + limit);
  const last = runs.at(-1);
  return start + limit < all.length && last ? { runs, next_cursor: cursorOf(last) } : { runs };
}

function newestFirst(a: RunRecord, b: RunRecord): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.id < b.id ? 1 : -1;
}

const cursorOf = (r: RunRecord): string => Buffer.from(r.id).toString('base64url');
