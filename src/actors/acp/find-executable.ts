import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** The first word of a shell command line, quotes removed (`"my agent" --acp` → `my agent`). */
export function commandProgram(command: string): string {
  const text = command.trim();
  // Leading `VAR=value` assignments are the shell's, not the program.
  const words = text.match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g) ?? [];
  const program = words.find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) ?? '';
  return program.replace(/^(["'])(.*)\1$/, '$2');
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where `program` resolves the way `/bin/sh` would find it: a path (relative to `cwd`) when it contains a
 * slash, else the first executable of that name on `PATH`. Undefined when there is none.
 *
 * @example
 * findExecutable('node', process.env.PATH, process.cwd()) // '/usr/bin/node'
 */
export function findExecutable(
  program: string,
  searchPath: string | undefined,
  cwd: string,
): string | undefined {
  if (program === '') return undefined;
  if (program.includes('/')) {
    const file = path.resolve(cwd, program);
    return isExecutableFile(file) ? file : undefined;
  }
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const file = path.join(path.resolve(cwd, dir), program);
    if (isExecutableFile(file)) return file;
  }
  return undefined;
}
