import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { AttractorError } from '../shared/errors.js';
import { isInside } from '../shared/is-inside.js';

/**
 * Where the runs a server or worker executes do their work: the working directory of their tool
 * commands and the folder their agents work in (docs/decisions/0005-what-a-submitted-pipeline-may-do.md).
 */
export interface WorkingDirPolicy {
  /** The folders a submission's `working_dir` may lie in (`--allow-workdir`); none: it may name none. */
  roots: readonly string[];
  /**
   * A run that names no folder works in its own, `<runs>/<id>/work` beside its run directory (a
   * worker); false: in the process's working directory (one-process `attractor serve`, as always).
   */
  perRun: boolean;
  /** Who refuses, in messages: "this worker", "this server". */
  who: string;
  /**
   * The process's data folder (run records, answer channels): a run never works in a folder that holds
   * it, or it could answer other runs' gates
   * (docs/decisions/0005-what-a-submitted-pipeline-may-do.md).
   */
  dataDir?: string;
}

/**
 * The `--allow-workdir` folders as real paths: each must be an existing folder, so a typo is an error
 * at start rather than every run refused later.
 */
export function allowedWorkdirRoots(dirs: readonly string[]): string[] {
  return dirs.map((dir) => {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      throw new AttractorError('BAD_FLAG', `--allow-workdir ${dir}: no such folder.`);
    }
    if (!statSync(real).isDirectory())
      throw new AttractorError('BAD_FLAG', `--allow-workdir ${dir}: not a folder.`);
    return real;
  });
}

/**
 * The folder a submission named, as a real path, when it is an existing folder inside one of `roots`
 * after symlinks are resolved; otherwise `WORKDIR_NOT_ALLOWED` or `WORKDIR_MISSING`. Messages show the
 * name as submitted and the flag, never the process's folders (nor where a symlink leads).
 */
export function namedWorkingDir(
  named: string,
  policy: Pick<WorkingDirPolicy, 'roots' | 'who' | 'dataDir'>,
): string {
  const refuse = (why: string): AttractorError =>
    new AttractorError(
      'WORKDIR_NOT_ALLOWED',
      `working_dir "${named}" ${why}: ${policy.who} runs a pipeline only in its own folder for the run or inside a folder it was started with --allow-workdir; the run was not started.`,
    );
  if (policy.roots.length === 0) throw refuse('was named, but no --allow-workdir folder is allowed');
  if (!path.isAbsolute(named)) throw refuse('is not an absolute path');
  const lexical = path.resolve(named);
  let real: string;
  try {
    real = realpathSync(lexical);
  } catch {
    // Whether a folder outside the allowed ones exists is not this process's to tell.
    if (!policy.roots.some((root) => isInside(lexical, root)))
      throw refuse('is outside every --allow-workdir folder');
    throw new AttractorError(
      'WORKDIR_MISSING',
      `working_dir "${named}" does not exist on ${policy.who}: create it there (and on every machine that may run it), or name another; the run was not started.`,
    );
  }
  if (!policy.roots.some((root) => isInside(real, root))) {
    throw refuse(
      policy.roots.some((root) => isInside(lexical, root))
        ? 'leads (through a symlink) outside every --allow-workdir folder'
        : 'is outside every --allow-workdir folder',
    );
  }
  if (policy.dataDir !== undefined && isInside(realOrResolved(policy.dataDir), real))
    throw refuse(`holds ${policy.who}'s data folder, where a run could answer other runs' gates`);
  if (!statSync(real).isDirectory()) {
    throw new AttractorError(
      'WORKDIR_MISSING',
      `working_dir "${named}" is not a folder on ${policy.who}; the run was not started.`,
    );
  }
  return real;
}

/**
 * Where run `runDir`'s nodes work: the folder it named (checked as `namedWorkingDir` does), its own
 * folder beside its run directory (created now; a run continuing on another machine gets the same path
 * under that machine's data folder, empty), or undefined: the process's working directory.
 */
export function runWorkingDir(
  named: string | undefined,
  policy: WorkingDirPolicy | undefined,
  runDir: string,
): string | undefined {
  if (named !== undefined) return namedWorkingDir(named, policy ?? { roots: [], who: 'this server' });
  if (!policy?.perRun) return undefined;
  const own = path.join(path.dirname(runDir), 'work');
  mkdirSync(own, { recursive: true });
  return own;
}

/** `dir` with symlinks resolved, as far as it exists (a data folder may not be made yet). */
export function realOrResolved(dir: string): string {
  const resolved = path.resolve(dir);
  try {
    return realpathSync(resolved);
  } catch {
    const parent = path.dirname(resolved);
    return parent === resolved ? resolved : path.join(realOrResolved(parent), path.basename(resolved));
  }
}

/**
 * Refuse to start a process whose data folder lies inside a folder its runs work in (`workingDirs`): a
 * run there could rewrite other runs' records and answer their gates
 * (docs/decisions/0005-what-a-submitted-pipeline-may-do.md).
 */
export function refuseDataDirInWork(dataDir: string, workingDirs: readonly string[]): void {
  const data = realOrResolved(dataDir);
  const work = workingDirs.map(realOrResolved).find((dir) => isInside(data, dir));
  if (work === undefined) return;
  throw new AttractorError(
    'DATA_DIR_IN_WORKDIR',
    `the data folder ${dataDir} lies inside ${work}, where this server's runs work: a run could answer other runs' gates there. Give --data-dir a folder outside it (without --data-dir the server keeps its data under ~/.local/state/attractor/serve).`,
  );
}

/**
 * A folder a fork will make (it does not exist yet) must lie inside an `--allow-workdir` folder, like
 * any `working_dir`: its nearest existing parent, symlinks resolved, is checked. `WORKDIR_NOT_ALLOWED` otherwise.
 */
export function allowNewWorkingDir(dir: string, policy: Pick<WorkingDirPolicy, 'roots' | 'who'>): void {
  let parent = path.resolve(dir);
  while (!existsSync(parent) && path.dirname(parent) !== parent) parent = path.dirname(parent);
  const real = path.join(realpathSync(parent), path.relative(parent, path.resolve(dir)));
  if (policy.roots.some((root) => isInside(real, root) && real !== root)) return;
  throw new AttractorError(
    'WORKDIR_NOT_ALLOWED',
    `the fork's folder ${path.basename(dir)} would lie outside every --allow-workdir folder: ${policy.who} makes a fork's folder only inside one (start it with --allow-workdir naming the original's parent folder); the fork was not made.`,
  );
}
