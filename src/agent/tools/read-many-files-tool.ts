import { isAbsolute, relative, resolve } from 'node:path';
import * as z from 'zod';
import type { ExecutionEnvironment } from '../environment/execution-environment.js';
import { defineTool } from './define-tool.js';
import { describeFailure, failure, success } from './describe-failure.js';
import { numberLines } from './read-file-tool.js';

/** Files one call reads at most: past this the model is told to narrow its patterns. */
export const READ_MANY_FILES_LIMIT = 50;

const GLOB_CHARS = /[*?[{]/;

interface Section {
  path: string;
  body: string;
  ok: boolean;
}

/** The files an entry names: itself, or a glob's matches (sorted, so the answer does not depend on mtimes). */
async function expand(env: ExecutionEnvironment, entry: string): Promise<string[] | Section> {
  if (!GLOB_CHARS.test(entry)) return [entry];
  try {
    const matches = await env.glob(entry);
    if (matches.length === 0) return { path: entry, body: 'No files matched.', ok: false };
    // The environment answers with absolute paths; the model asked relative to the working directory.
    return matches.map((match) => shown(env, match)).sort();
  } catch (error) {
    return { path: entry, body: describeFailure(error).output, ok: false };
  }
}

function shown(env: ExecutionEnvironment, path: string): string {
  const rel = relative(env.workingDirectory, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

async function readOne(env: ExecutionEnvironment, path: string): Promise<Section> {
  try {
    const text = await env.readFile(path);
    if (text === '') return { path, body: '(empty file)', ok: true };
    const lines = text.split('\n');
    if (text.endsWith('\n')) lines.pop();
    return { path, body: numberLines(lines, 1), ok: true };
  } catch (error) {
    return { path, body: describeFailure(error).output, ok: false };
  }
}

/**
 * Gemini's habit of reading several files in one call (gemini-cli ships the same tool): each entry of `paths`
 * is a file or a glob pattern; every file comes back numbered like read_file under a `--- path ---` header, a
 * missing one as its error, in the order asked. Only when nothing at all could be read is the result an error.
 */
export const readManyFilesTool = defineTool({
  name: 'read_many_files',
  description:
    'Read several text files in one call. Each entry of `paths` is a file path or a glob pattern ' +
    '(e.g. "src/**/*.ts"). Every file comes back numbered like read_file, under a "--- path ---" header. ' +
    `At most ${READ_MANY_FILES_LIMIT} files per call; use read_file with offset and limit for one large file.`,
  parameters: z.object({
    paths: z
      .array(z.string().min(1))
      .min(1)
      .describe('File paths or glob patterns, relative to the working directory.'),
  }),
  async execute({ paths }, { env }) {
    // Files to read and entries that matched nothing, in the order asked; a file named twice is read once.
    const items: Array<string | Section> = [];
    const seen = new Set<string>();
    for (const entry of paths) {
      const expanded = await expand(env, entry);
      if (!Array.isArray(expanded)) items.push(expanded);
      else
        for (const file of expanded) {
          const key = resolve(env.workingDirectory, file);
          if (seen.has(key)) continue;
          seen.add(key);
          items.push(file);
        }
    }
    if (seen.size > READ_MANY_FILES_LIMIT) {
      return failure(
        `Error: the paths match ${seen.size} files, more than ${READ_MANY_FILES_LIMIT}; narrow the patterns or read in several calls.`,
      );
    }
    const sections: Section[] = [];
    for (const item of items) sections.push(typeof item === 'string' ? await readOne(env, item) : item);
    const text = sections.map((s) => `--- ${s.path} ---\n${s.body}`).join('\n\n');
    return sections.some((s) => s.ok) ? success(text) : failure(text);
  },
});
