import { statSync } from 'node:fs';
import path from 'node:path';
import { type ReadScope, uniqueFolders } from '../compiler/files/read-scope.js';
import { AttractorError } from '../shared/errors.js';
import { withRealPaths } from '../shared/with-real-paths.js';
import { displayPath } from './display-path.js';

/**
 * What a pipeline run from the command line may read: its own folder, the folder the command runs in
 * (so `pipelines/x.dot` may name `@../prompts/plan.md` from the repository root) and every
 * `--allow-read DIR`. Nothing else, so a pipeline someone downloaded cannot read `~/.ssh` or `../.env`.
 *
 * @example
 * cliReadScope('/repo/pipelines/x.dot', '/repo', ['../shared-prompts']);
 */
export function cliReadScope(file: string, cwd: string, allowRead: readonly string[] = []): ReadScope {
  const base = path.dirname(path.resolve(cwd, file));
  const extra = allowRead.map((dir) => {
    const absolute = path.resolve(cwd, dir);
    let isDirectory = false;
    try {
      isDirectory = statSync(absolute).isDirectory();
    } catch {
      // Reported below.
    }
    if (!isDirectory) throw new AttractorError('BAD_FLAG', `--allow-read ${dir}: no such directory.`);
    return absolute;
  });
  const shown = [
    `the pipeline's folder (${displayPath(cwd, base)})`,
    'the working directory',
    ...extra.map((dir) => `--allow-read ${displayPath(cwd, dir)}`),
  ];
  return {
    base,
    roots: uniqueFolders(withRealPaths([base, cwd, ...extra])),
    described: `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`,
    widen: 'pass --allow-read DIR to allow another folder',
  };
}
