import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { safeSegment } from '../machines/stage-dir.js';
import { AttractorError } from '../shared/errors.js';
import { runDirectoryFor } from './run-directory.js';

export const DEFAULT_RUNS_ROOT = '.attractor-runs';

/**
 * Where a fresh run writes its files: `runDir` as given, or `<runsRoot>/<graph>/<run id>/`.
 * A `runDir` that already holds a run, or files a run would write over, is refused: two runs never mix
 * their checkpoints and logs, and nothing of the user's is replaced.
 */
export function resolveRunDir(
  options: { runDir?: string; runsRoot?: string },
  graph: { name: string; nodes: ReadonlyArray<{ id: string }> },
  runId: string,
): string {
  if (options.runDir !== undefined && options.runsRoot !== undefined) {
    throw new AttractorError(
      'BAD_RUN_OPTIONS',
      'runDir and runsRoot were both given: pass runDir for the run directory itself, or runsRoot for the default layout, not both.',
    );
  }
  if (options.runDir === undefined)
    return runDirectoryFor(options.runsRoot ?? DEFAULT_RUNS_ROOT, graph.name, runId);
  const dir = resolve(options.runDir);
  assertRunDirFree(
    dir,
    options.runDir,
    graph.nodes.map((node) => node.id),
  );
  return dir;
}

/**
 * What a new run writes at the top of its directory, besides a folder per node (`restart-<k>/` after a
 * loop restart): `answers/` and `questions/` are the human gates' channel, `child/` a child pipeline's run.
 */
const RUN_FILES = [
  'pipeline.dot',
  'events.jsonl',
  'checkpoint.json',
  'checkpoint-journal.jsonl',
  'checkpoint-history.jsonl',
  'run.lock',
  'processes.json',
  'artifacts',
  'answers',
  'questions',
  'child',
];

/**
 * Refuses a directory that already holds a run (its `manifest.json`), or anything a new run would write
 * over or into (decision 0012): `--logs-dir .` must never replace a file of the user's named
 * `pipeline.dot`. `nodeIds` are the pipeline's nodes (each gets a folder) when known; `shown` is the path
 * as the user typed it, for the message. A folder with a `run.lock` is left to the lock (a run is
 * starting there, or one died starting): the engine looks again once it holds the lock.
 */
export function assertRunDirFree(dir: string, shown: string = dir, nodeIds: readonly string[] = []): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return;
  if (existsSync(join(dir, 'manifest.json'))) {
    const other = recordedRunId(join(dir, 'manifest.json'));
    const arg = /^[\w./@:+-]+$/.test(shown) ? shown : JSON.stringify(shown);
    throw new AttractorError(
      'RUN_DIR_IN_USE',
      `${shown} already holds a run${other ? ` (${other})` : ''}: continue it with \`attractor resume ${arg}\`, or give a fresh directory for a new run.`,
    );
  }
  if (!existsSync(join(dir, 'run.lock'))) refuseOverwrites(dir, shown, nodeIds);
}

/**
 * Refuses a directory holding, not as an empty folder, a name a new run writes (`except` those it holds
 * itself by now, its `run.lock`). Names are compared without case (a `Pipeline.dot` is the same file on
 * macOS), and a symbolic link never passes for an empty folder (the run would write through it).
 */
export function refuseOverwrites(
  dir: string,
  shown: string,
  nodeIds: readonly string[],
  except: readonly string[] = [],
): void {
  const ours = new Set([...RUN_FILES, ...nodeIds.map(safeSegment)].map((name) => name.toLowerCase()));
  for (const name of except) ours.delete(name.toLowerCase());
  const taken = readdirSync(dir)
    .filter((name) => {
      const key = name.toLowerCase();
      return (ours.has(key) || /^restart-\d+$/.test(key)) && !isEmptyFolder(join(dir, name));
    })
    .sort();
  if (taken.length > 0) throw overwriteRefusal(shown, taken);
}

/** The one-line refusal of a folder holding `names` a new run would write over (the first three named). */
export function overwriteRefusal(shown: string, names: readonly string[]): AttractorError {
  const named = names.slice(0, 3).join(', ') + (names.length > 3 ? ` and ${names.length - 3} more` : '');
  return new AttractorError(
    'RUN_DIR_NOT_EMPTY',
    `${shown} holds ${named}, which a run would write over: give an empty or new directory for a new run.`,
  );
}

function isEmptyFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory() && readdirSync(path).length === 0;
  } catch {
    return false;
  }
}

function recordedRunId(manifestPath: string): string | undefined {
  try {
    const id = (JSON.parse(readFileSync(manifestPath, 'utf8')) as { run_id?: unknown }).run_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
