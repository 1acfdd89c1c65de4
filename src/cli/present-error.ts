import { AttractorError } from '../shared/errors.js';
import type { CliIo } from './cli-io.js';
import { EXIT_FAILURE, EXIT_INTERNAL, EXIT_USAGE } from './exit-codes.js';

/**
 * Turns anything an action threw into what the user reads on stderr and the exit code.
 * An AttractorError is expected bad input: one line, with `file:line:col` when known, no stack.
 * Anything else is our bug: one line plus a hint, and the stack only with `--verbose`.
 */
export function presentError(error: unknown, io: Pick<CliIo, 'stderr'>, verbose: boolean): number {
  if (AttractorError.isInstance(error)) {
    io.stderr(`attractor: ${oneLine(error.describe())}\n`);
    if (verbose && error.stack) io.stderr(`${error.stack}\n`);
    // A flag value found wrong after parsing (a --workdir that does not exist) is still the command line.
    return error.code === 'BAD_FLAG' ? EXIT_USAGE : EXIT_FAILURE;
  }
  const fsError = environmentError(error);
  if (fsError) {
    io.stderr(`attractor: ${oneLine(fsError)}\n`);
    if (verbose && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
    return EXIT_FAILURE;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(`attractor: internal error: ${oneLine(message)}\n`);
  if (verbose) {
    if (error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
  } else {
    io.stderr('attractor: this is a bug in attractor; re-run with --verbose to see the stack trace\n');
  }
  return EXIT_INTERNAL;
}

/**
 * Codes of file-system failures caused by the machine, not by us: a file where a directory is expected
 * (`--logs-dir` naming a file), permissions, a full or read-only disk.
 */
const ENVIRONMENT_CODES = new Set([
  'EACCES',
  'EPERM',
  'ENOENT',
  'ENOTDIR',
  'EISDIR',
  'EEXIST',
  'ENOSPC',
  'EDQUOT',
  'EROFS',
  'EMFILE',
  'ENFILE',
  'ENAMETOOLONG',
  'ELOOP',
  'EBUSY',
]);

/** "cannot mkdir /x: not a directory (ENOTDIR)" for a Node system error we did not wrap, else undefined. */
function environmentError(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, syscall, path } = error as { code?: unknown; syscall?: unknown; path?: unknown };
  if (typeof code !== 'string' || !ENVIRONMENT_CODES.has(code) || typeof syscall !== 'string')
    return undefined;
  // Node's message is "CODE: description, syscall 'path'"; keep the description.
  const description = /^[A-Z]+: (.*?), \w+(?: '.*')?$/s.exec(error.message)?.[1] ?? error.message;
  return `cannot ${syscall}${typeof path === 'string' ? ` ${path}` : ''}: ${description} (${code})`;
}

/** Keeps the promise of one message line even when a library put newlines in its message. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
