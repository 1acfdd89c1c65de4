import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { GrepMatch, GrepOptions, GrepResult } from './execution-environment.js';
import { globToRegExp } from './glob-to-regexp.js';
import { toPosix, walkFiles } from './walk-files.js';

/** Files larger than this are skipped: a search is for source, not for logs or data dumps. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** A NUL byte in the first 8 KB marks a binary file, as git and ripgrep decide. */
const BINARY_SNIFF_BYTES = 8192;

/**
 * Regex search in pure JavaScript: every text file under `target` (a file or a directory), line by line,
 * stopping after `maxResults` matches. Paths in the result are relative to `root`.
 *
 * @throws SyntaxError for an invalid pattern (the grep tool reports it to the model)
 */
export async function grepFiles(
  root: string,
  target: string,
  pattern: string,
  options: GrepOptions = {},
): Promise<GrepResult> {
  const regex = new RegExp(pattern, options.caseInsensitive ? 'i' : '');
  const maxResults = options.maxResults ?? 100;
  const include = options.include ? globToRegExp(options.include) : undefined;
  const includeOnPath = options.include?.includes('/') ?? false;
  const matches: GrepMatch[] = [];
  const info = await stat(target);
  const files = info.isDirectory() ? walkFiles(target) : single(target);
  for await (const file of files) {
    const relative = toPosix(path.relative(root, file));
    if (
      include &&
      !include.test(includeOnPath ? toPosix(path.relative(target, file)) : path.basename(file))
    ) {
      continue;
    }
    const text = await readSearchableText(file);
    if (text === undefined) continue;
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (!regex.test(line)) continue;
      if (matches.length >= maxResults) return { matches, limited: true };
      matches.push({ path: relative, line: i + 1, text: line.endsWith('\r') ? line.slice(0, -1) : line });
    }
  }
  return { matches, limited: false };
}

async function* single(file: string): AsyncGenerator<string> {
  yield file;
}

/** The file's text, or undefined when it is over MAX_FILE_BYTES (checked by size, not read), binary or unreadable. */
async function readSearchableText(file: string): Promise<string | undefined> {
  try {
    if ((await stat(file)).size > MAX_FILE_BYTES) return undefined;
    const bytes = await readFile(file);
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return undefined;
    return bytes.toString('utf8');
  } catch {
    return undefined;
  }
}
