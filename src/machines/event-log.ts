import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import type { PipelineEvent } from '../shared/pipeline-event.js';

/**
 * `events.jsonl`: one event per line, nothing kept in memory. Lines of one synchronous burst (a node
 * step emits several events in one transition) are batched into one write, flushed before the next
 * checkpoint is written and otherwise on the next turn of the event loop, so a reader tailing the file
 * sees each event within a tick and the file is never behind the checkpoint.
 */
export function openEventLog(path: string, onDeferredError?: (error: unknown) => void) {
  const fd = openSync(path, 'a');
  endTornLine(path, fd);
  let open = true;
  let pending = '';
  let scheduled = false;
  const flush = (): void => {
    if (!open || pending === '') return;
    const text = pending;
    pending = '';
    writeSync(fd, text);
  };
  return {
    append(event: PipelineEvent): void {
      if (!open) return;
      pending += `${JSON.stringify(event)}\n`;
      // One pending immediate at most: explicit flushes leave it in place, so a long run of steps
      // that never yields to the event loop does not queue one per event.
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          // Nobody awaits this turn: a failed write would otherwise be an uncaught exception.
          try {
            flush();
          } catch (error) {
            if (!onDeferredError) throw error;
            onDeferredError(error);
          }
        });
      }
    },
    flush,
    close(): void {
      flush();
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

/**
 * A process killed in the middle of a write can leave a last line without its newline: end it, so the
 * next run's first event (a resume's `pipeline.resume`) is a line of its own, not glued to the fragment.
 */
function endTornLine(path: string, fd: number): void {
  const { size } = fstatSync(fd);
  if (size === 0) return;
  const last = Buffer.alloc(1);
  const reader = openSync(path, 'r');
  try {
    readSync(reader, last, 0, 1, size - 1);
  } finally {
    closeSync(reader);
  }
  if (last[0] !== 0x0a) writeSync(fd, '\n');
}
