import { join } from 'node:path';

/** A name made safe as one path segment (node ids, branch ids, graph names). */
export function safeSegment(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_') || 'pipeline';
}

/** Stage directory of a node; visits after the k-th loop restart go under `restart-<k>/`. */
export function stageDirFor(runDir: string, nodeId: string, restarts: number): string {
  const base = restarts > 0 ? join(runDir, `restart-${restarts}`) : runDir;
  return join(base, safeSegment(nodeId));
}
