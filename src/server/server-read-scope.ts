import path from 'node:path';
import { type ReadScope, uniqueFolders } from '../compiler/files/read-scope.js';
import { definedFields } from '../shared/defined-fields.js';
import { withRealPaths } from '../shared/with-real-paths.js';

/** `source_file` of a run submitted as `dot_source`: it has no folder of its own. */
export const INLINE_SOURCE = '<inline>';

/**
 * What a submitted pipeline may read: only the server's `--allow-dir` folders, never the server's
 * working directory (unless it is one of them). A `dot_path` pipeline's names resolve against its own
 * folder; an inline `dot_source` has none, so its names resolve against the first allowed folder, and
 * a server without `--allow-dir` lets it name no file at all. Messages name the flag, not the folders,
 * so a client learns nothing about the server's layout.
 *
 * @example
 * serverReadScope('<inline>', ['/srv/pipelines']); // { base: '/srv/pipelines', roots: ['/srv/pipelines'], … }
 */
export function serverReadScope(sourceFile: string, allowDirs: readonly string[]): ReadScope {
  const allowed = allowDirs.map((dir) => path.resolve(dir));
  const base = sourceFile === INLINE_SOURCE ? allowed[0] : path.dirname(sourceFile);
  return {
    ...definedFields({ base }),
    roots: uniqueFolders(withRealPaths(allowed)),
    described:
      allowed.length === 0
        ? 'no folder at all (this server was started without --allow-dir)'
        : "the server's allowed folders (--allow-dir)",
    widen: 'ask the server operator to allow its folder with --allow-dir',
    hidePaths: true,
  };
}
