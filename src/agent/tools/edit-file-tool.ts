import * as z from 'zod';
import { defineTool } from './define-tool.js';
import { describeFailure, failure, success } from './describe-failure.js';
import { fuzzyLineReplace } from './fuzzy-line-replace.js';

/** Occurrences of `needle` in `haystack`, not overlapping. */
export function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length))
    count++;
  return count;
}

export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Replace text in a file. old_string must match the file (whitespace included; whole lines that differ only in whitespace are accepted when unambiguous) and be unique, unless replace_all is true. Include enough surrounding lines to make it unique.',
  parameters: z.object({
    file_path: z.string().min(1).describe('Path to the file to edit.'),
    old_string: z.string().min(1).describe('Exact text to find. Must be unique unless replace_all=true.'),
    new_string: z.string().describe('Replacement text.'),
    replace_all: z.boolean().optional().describe('Replace all occurrences. Default: false.'),
  }),
  aliases: { path: 'file_path' },
  async execute({ file_path: path, old_string, new_string, replace_all = false }, { env }) {
    let text: string;
    try {
      text = await env.readFile(path);
    } catch (error) {
      return describeFailure(error);
    }
    const count = countOccurrences(text, old_string);
    const ambiguous = (n: number) =>
      failure(`Error: old_string found ${n} times in ${path}. Provide more context to make it unique.`);
    let edited: string;
    if (count === 0) {
      const fuzzy = replace_all
        ? ({ kind: 'not_found' } as const)
        : fuzzyLineReplace(text, old_string, new_string);
      if (fuzzy.kind === 'not_found') return failure(`Error: old_string not found in ${path}`);
      if (fuzzy.kind === 'ambiguous') return ambiguous(fuzzy.count);
      edited = fuzzy.text;
    } else {
      if (count > 1 && !replace_all) return ambiguous(count);
      // split/join, not String.replace: `$&` and friends in new_string must stay literal.
      edited = text.split(old_string).join(new_string);
    }
    try {
      await env.writeFile(path, edited);
    } catch (error) {
      return describeFailure(error);
    }
    return success(
      replace_all ? `Successfully edited ${path} (${count} replacements)` : `Successfully edited ${path}`,
    );
  },
});
