import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AttractorError } from '../shared/errors.js';
import { runDirectoryFor } from './run-directory.js';

export const DEFAULT_RUNS_ROOT = '.attractor-runs';

/**
 * Where a fresh run writes its files: `runDir` as given, or `<runsRoot>/<graph>/<run id>/`.
 * A `runDir` that already holds a run is refused, so two runs never mix their checkpoints and logs.
 */
export function resolveRunDir(
  options: { runDir?: string; runsRoot?: string },
  graphName: string,
  runId: string,
): string {
  if (options.runDir !== undefined && options.runsRoot !== undefined) {
    throw new AttractorError(
      'BAD_RUN_OPTIONS',
      'runDir and runsRoot were both given: pass runDir for the run directory itself, or runsRoot for the default layout, not both.',
    );
  }
  if (options.runDir === undefined)
    return runDirectoryFor(options.runsRoot ?? DEFAULT_RUNS_ROOT, graphName, runId);
  const dir = resolve(options.runDir);
  assertRunDirFree(dir, options.runDir);
  return dir;
}

/**
 * Refuses a directory that already holds a run (its `manifest.json`); `shown` is the path as the user
 * typed it, for the message.
 */
export function assertRunDirFree(dir: string, shown: string = dir): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory() || !existsSync(join(dir, 'manifest.json'))) return;
  const other = recordedRunId(join(dir, 'manifest.json'));
  const arg = /^[\w./@:+-]+$/.test(shown) ? shown : JSON.stringify(shown);
  throw new AttractorError(
    'RUN_DIR_IN_USE',
    `${shown} already holds a run${other ? ` (${other})` : ''}: continue it with \`attractor resume ${arg}\`, or give a fresh directory for a new run.`,
  );
}

function recordedRunId(manifestPath: string): string | undefined {
  try {
    const id = (JSON.parse(readFileSync(manifestPath, 'utf8')) as { run_id?: unknown }).run_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
