import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import type { PipelineEvent } from '../shared/pipeline-event.js';

/**
 * Read `events.jsonl` and call `each(id, event)` for every event with id > `afterId` (ids are 1-based
 * line numbers). A torn last line (the writer was killed mid-write) is skipped, not fatal.
 * Reads in 64 KB chunks so a long run's log is never held whole in memory.
 */
export function readEventLines(
  file: string,
  afterId: number,
  each: (id: number, event: PipelineEvent) => void,
  untilId = Number.POSITIVE_INFINITY,
): number {
  if (!existsSync(file)) return 0;
  const fd = openSync(file, 'r');
  const chunk = Buffer.alloc(64 * 1024);
  let carry = '';
  let id = 0;
  try {
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      const lines = (carry + chunk.toString('utf8', 0, n)).split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') continue;
        id++;
        if (id > untilId) return id - 1;
        if (id <= afterId) continue;
        try {
          each(id, JSON.parse(line) as PipelineEvent);
        } catch {
          // torn or foreign line: count it (ids stay line numbers) but do not send it
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return id;
}

/** How many complete event lines the file holds. */
export function countEventLines(file: string): number {
  return readEventLines(file, Number.POSITIVE_INFINITY, () => {});
}
