import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import type { RunQuality } from './run-types.js';

/** How far back from the end of `events.jsonl` a run list looks (a long execution's start may lie beyond). */
const TAIL_BYTES = 1 << 20;

/** What the run list shows of a run's latest execution: how it ended, and who resumed or cancelled it. */
export interface LastExecution {
  quality?: RunQuality;
  resumed_by?: string;
  cancelled_by?: string;
}

const lineSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('pipeline.finalize'),
    data: z.object({ quality: z.enum(['clean', 'degraded', 'failed']) }),
  }),
  z.object({
    kind: z.literal('pipeline.cancelled'),
    data: z.object({ cancelled_by: z.string().optional() }),
  }),
  z.object({ kind: z.literal('pipeline.resume'), data: z.object({ resumed_by: z.string().optional() }) }),
  z.object({ kind: z.literal('pipeline.start') }),
]);

/** Only the lines of these kinds are parsed: a run list reads many runs. */
const WANTED = /"kind":"pipeline\.(finalize|cancelled|resume|start)"/;

/**
 * The latest execution of the run in `runDir` as its `events.jsonl` tells it: read back from the end to
 * that execution's `pipeline.start` or `pipeline.resume`, at most the last MiB. Empty when the file is
 * missing or says nothing of these.
 */
export function readLastExecution(runDir: string): LastExecution {
  const found: LastExecution = {};
  for (const line of tailLines(join(runDir, 'events.jsonl')).reverse()) {
    if (!WANTED.test(line)) continue;
    let parsed: z.infer<typeof lineSchema>;
    try {
      parsed = lineSchema.parse(JSON.parse(line));
    } catch {
      continue;
    }
    if (parsed.kind === 'pipeline.finalize') found.quality ??= parsed.data.quality;
    else if (parsed.kind === 'pipeline.cancelled') {
      if (parsed.data.cancelled_by !== undefined) found.cancelled_by ??= parsed.data.cancelled_by;
    } else {
      if (parsed.kind === 'pipeline.resume' && parsed.data.resumed_by !== undefined)
        found.resumed_by = parsed.data.resumed_by;
      break;
    }
  }
  return found;
}

/** The whole lines of the file's last `TAIL_BYTES`; none when it cannot be read. */
function tailLines(path: string): string[] {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return [];
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, size - length);
    const lines = buffer.subarray(0, read).toString('utf8').split('\n');
    // Cut mid-line at the front unless the file's start was read; a torn last line fails to parse.
    return length < size ? lines.slice(1) : lines;
  } finally {
    closeSync(fd);
  }
}
