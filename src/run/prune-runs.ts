import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AttractorError } from '../shared/errors.js';
import { git } from '../working-tree/git-command.js';
import { locateRepository } from '../working-tree/locate-repository.js';
import { runRef } from '../working-tree/tree-git-dir.js';
import { recordedWorkDir } from './fork-tree.js';
import { listRuns } from './list-runs.js';
import type { RunSummary } from './read-run-summary.js';

/** A run that ended and asks nothing more: completed, failed or cancelled (paused and interrupted runs wait for a resume). */
const FINISHED = new Set<RunSummary['status']>(['completed', 'failed', 'cancelled']);

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `30d`, `12h`, `2w`, `90m` → milliseconds; undefined when it is not an age. */
export function parseAge(text: string): number | undefined {
  const match = /^\s*(\d+)\s*([mhdw])\s*$/i.exec(text);
  const unit = match ? UNITS[(match[2] ?? '').toLowerCase()] : undefined;
  return match && unit ? Number(match[1]) * unit : undefined;
}

/** When a run last wrote its checkpoint (its end, for a finished run). */
function endedAt(runDir: string): number {
  try {
    return statSync(join(runDir, 'checkpoint.json')).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Remove the finished runs under `root` that ended more than `olderThanMs` ago: their run directories
 * (their own git directories with them) and the ref each kept in the repository it worked in, so that
 * repository's gc may let their snapshots go. Runs kept keep their refs, so gc never takes what they need.
 */
export async function pruneRuns(
  root: string,
  options: { olderThanMs?: number; now?: number },
): Promise<RunSummary[]> {
  const now = options.now ?? Date.now();
  const doomed = listRuns(root).filter(
    (run) => FINISHED.has(run.status) && now - endedAt(run.run_dir) >= (options.olderThanMs ?? 0),
  );
  for (const run of doomed) {
    await dropUserRef(run);
    rmSync(run.run_dir, { recursive: true, force: true });
  }
  return doomed;
}

async function dropUserRef(run: RunSummary): Promise<void> {
  const workDir = recordedWorkDir(run.run_dir);
  const repo = workDir ? locateRepository(workDir) : undefined;
  if (!repo) return;
  try {
    // Hooks, fsmonitor and the rest are disarmed (git-command); a packed ref goes too.
    await git({ gitDir: repo.commonDir }, ['update-ref', '-d', runRef(run.id)]);
  } catch (error) {
    throw new AttractorError(
      'PRUNE_FAILED',
      `could not remove run ${run.id}'s ref from ${repo.top}: ${error instanceof Error ? error.message : String(error)}; its run directory was kept.`,
    );
  }
}
