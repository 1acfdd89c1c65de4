import path from 'node:path';
import { DEFAULT_PARSE_LIMITS } from '../compiler/parse/parse-limits.js';
import { readConfinedFile } from '../shared/read-confined-file.js';
import { ApiError } from './api-error.js';

/**
 * The pipeline a request names with `dot_path`, read from one of the allowed folders. Only relative
 * names without `..` (403 otherwise); a file whose real path leaves every allowed folder is 403, a
 * missing one 404, a folder, FIFO or device 400 without being opened (a FIFO would block the server
 * for every client), one over the parser's 10 MB cap 413.
 *
 * @example
 * const { file, text } = readDotPath('team/build.dot', ['/srv/pipelines']);
 */
export function readDotPath(
  requested: string,
  allowedDirs: readonly string[],
): { file: string; text: string } {
  if (requested === '' || path.isAbsolute(requested) || requested.split(/[\\/]/).includes('..')) {
    throw new ApiError(
      403,
      'PATH_NOT_ALLOWED',
      `path "${requested}" must be relative to an allowed directory, without "..".`,
    );
  }
  for (const dir of allowedDirs) {
    const read = readConfinedFile(path.join(dir, requested), {
      roots: allowedDirs,
      maxBytes: DEFAULT_PARSE_LIMITS.maxInputBytes,
    });
    if (read.ok) return { file: read.path, text: read.text };
    switch (read.problem) {
      case 'missing':
        continue;
      case 'outside':
        throw new ApiError(
          403,
          'PATH_NOT_ALLOWED',
          `path "${requested}" leads outside the allowed directories.`,
        );
      case 'not_regular':
        throw new ApiError(400, 'NOT_A_FILE', `path "${requested}" is not a pipeline file: ${read.reason}.`);
      case 'too_large':
        throw new ApiError(413, 'FILE_TOO_LARGE', `path "${requested}" is too large: ${read.reason}.`);
      case 'unreadable':
        throw new ApiError(400, 'FILE_UNREADABLE', `path "${requested}" cannot be read: ${read.reason}.`);
    }
  }
  throw new ApiError(404, 'FILE_NOT_FOUND', `no file "${requested}" in the allowed directories.`);
}
