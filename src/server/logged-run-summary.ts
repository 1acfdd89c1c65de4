import { existsSync } from 'node:fs';
import path from 'node:path';
import { applyNodeStatus, type NodeStatus } from './node-statuses.js';
import { readEventLines } from './read-event-lines.js';
import { emptyRunSummary, foldRunSummary, type RunSummary } from './run-summary.js';

/** Where the run is and what it cost, folded from the `events.jsonl` of `runDir` (empty without one). */
export function summaryFromLog(runDir: string | undefined): RunSummary {
  let summary = emptyRunSummary();
  if (runDir) {
    readEventLines(path.join(runDir, 'events.jsonl'), 0, (_id, event) => {
      summary = foldRunSummary(summary, event);
    });
  }
  return summary;
}

/** Each node's status, folded from the `events.jsonl` of `runDir` (none without one). */
export function statusesFromLog(runDir: string | undefined): Map<string, NodeStatus> {
  const statuses = new Map<string, NodeStatus>();
  if (runDir && existsSync(runDir)) {
    readEventLines(path.join(runDir, 'events.jsonl'), 0, (_id, event) => applyNodeStatus(statuses, event));
  }
  return statuses;
}
