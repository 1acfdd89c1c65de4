import { closeSync, openSync, writeSync } from 'node:fs';
import type { PipelineEvent } from '../shared/pipeline-event.js';

/** `events.jsonl`: one event per line, appended as it happens (nothing kept in memory). */
export function openEventLog(path: string) {
  const fd = openSync(path, 'a');
  let open = true;
  return {
    append(event: PipelineEvent): void {
      if (open) writeSync(fd, `${JSON.stringify(event)}\n`);
    },
    close(): void {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}
