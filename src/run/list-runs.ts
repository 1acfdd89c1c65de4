import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type RunSummary, readRunSummary } from './read-run-summary.js';

/**
 * Every run under `root`, newest first: `root` itself when it is a run directory, its sub-folders that
 * are, and theirs (the default layout is `<root>/<graph>/<run id>/`).
 */
export function listRuns(root: string, now: () => number = Date.now): RunSummary[] {
  const runs: RunSummary[] = [];
  const visit = (dir: string, depth: number): void => {
    if (existsSync(join(dir, 'manifest.json'))) {
      const summary = readRunSummary(dir, now);
      if (summary) runs.push(summary);
      return;
    }
    if (depth === 0) return;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      const path = join(dir, name);
      if (isDirectory(path)) visit(path, depth - 1);
    }
  };
  visit(resolve(root), 2);
  return runs.sort((a, b) => b.started_at.localeCompare(a.started_at) || b.id.localeCompare(a.id));
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
