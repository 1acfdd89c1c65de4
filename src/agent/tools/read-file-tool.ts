import * as z from 'zod';
import { defineTool } from './define-tool.js';
import { describeFailure, failure, success } from './describe-failure.js';

/** Lines returned when the model gives no `limit`. */
export const DEFAULT_READ_LIMIT = 2000;

/** `cat -n` style: the number right-aligned in 6 columns, a tab, the line. */
export function numberLines(lines: readonly string[], firstLineNumber: number): string {
  return lines.map((line, i) => `${String(firstLineNumber + i).padStart(6)}\t${line}`).join('\n');
}

export const readFileTool = defineTool({
  name: 'read_file',
  description:
    'Read a text file and return its lines numbered like `cat -n`. Use offset and limit to read a window of a large file.',
  parameters: z.object({
    file_path: z.string().min(1).describe('Absolute or relative path to the file.'),
    offset: z.number().int().min(1).optional().describe('1-based line number to start reading from.'),
    limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`Maximum number of lines to read (default ${DEFAULT_READ_LIMIT}).`),
  }),
  aliases: { path: 'file_path' },
  async execute({ file_path: path, offset = 1, limit = DEFAULT_READ_LIMIT }, { env }) {
    let text: string;
    try {
      text = await env.readFile(path);
    } catch (error) {
      return describeFailure(error);
    }
    if (text.length === 0) return success(`(${path} is empty)`);
    const lines = text.split('\n');
    if (text.endsWith('\n')) lines.pop();
    if (offset > lines.length) {
      return failure(`Error: offset ${offset} is past the end of ${path} (${lines.length} lines)`);
    }
    const window = lines
      .slice(offset - 1, offset - 1 + limit)
      .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
    const shown = numberLines(window, offset);
    const last = offset - 1 + window.length;
    if (last >= lines.length) return success(shown);
    return success(
      `${shown}\n[Showing lines ${offset}-${last} of ${lines.length}. Use offset=${last + 1} to read more.]`,
    );
  },
});
