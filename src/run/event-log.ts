import { closeSync, openSync } from 'node:fs';
import type { WriteLane } from '../shared/commit-queue.js';
import { endTornLine, writeWhole } from '../shared/line-file.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { openQueuedLineFile } from '../shared/queued-line-file.js';

/** A run's `events.jsonl` writer. */
export interface EventLog {
  append(event: PipelineEvent): void;
  /** Write the pending lines now (without a lane); with one, they are already queued in order. */
  flush(): void;
  close(): void;
}

/**
 * `events.jsonl`: one event per line, nothing kept in memory. Lines of one synchronous burst (a node
 * step emits several events in one transition) are batched into one write, flushed before the next
 * checkpoint is written and otherwise on the next turn of the event loop, so a reader tailing the file
 * sees each event within a tick and the file is never behind the checkpoint.
 */
export function openEventLog(
  path: string,
  onDeferredError?: (error: unknown) => void,
  lane?: WriteLane,
): EventLog {
  // Through the run's write lane (decision 0055): the events of a burst are one queued write, ordered
  // before the checkpoint that follows them.
  if (lane) {
    const file = openQueuedLineFile(path, lane, { durable: false });
    return {
      append: (event) => file.append(JSON.stringify(event)),
      flush: () => {},
      close: () => file.close(),
    };
  }
  // Readable too, so a torn last line left by a killed process can be found and ended.
  const fd = openSync(path, 'a+');
  endTornLine(fd);
  let open = true;
  let pending = '';
  let scheduled = false;
  const flush = (): void => {
    if (!open || pending === '') return;
    const text = pending;
    pending = '';
    // All of it, even when a write stops short: the next event must not be glued to a fragment.
    writeWhole(fd, text);
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
