import * as z from 'zod';
import type { GrepResult } from '../environment/execution-environment.js';
import { defineTool } from './define-tool.js';
import { describeFailure, failure, success } from './describe-failure.js';

export const grepTool = defineTool({
  name: 'grep',
  description:
    'Search file contents with a regular expression (JavaScript syntax). Returns `path:line: text` for each matching line.',
  parameters: z.object({
    pattern: z.string().min(1).describe('Regular expression pattern to search for.'),
    path: z.string().optional().describe('File or directory to search in. Default: working directory.'),
    glob_filter: z.string().optional().describe('Glob pattern to filter files (e.g. "*.ts").'),
    case_insensitive: z.boolean().optional().describe('Ignore case. Default: false.'),
    max_results: z.number().int().min(1).optional().describe('Maximum number of matches. Default: 100.'),
  }),
  aliases: { include: 'glob_filter' },
  async execute({ pattern, path, glob_filter: include, case_insensitive, max_results = 100 }, { env }) {
    try {
      new RegExp(pattern);
    } catch (error) {
      return failure(`Error: invalid regular expression: ${(error as Error).message}`);
    }
    let result: GrepResult;
    try {
      result = await env.grep(pattern, path, {
        maxResults: max_results,
        ...(include ? { include } : {}),
        ...(case_insensitive ? { caseInsensitive: true } : {}),
      });
    } catch (error) {
      return describeFailure(error);
    }
    if (result.matches.length === 0) return success('No matches found.');
    const lines = result.matches.map((m) => `${m.path}:${m.line}: ${m.text}`);
    if (result.limited) lines.push(`[Results limited to ${max_results} matches]`);
    return success(lines.join('\n'));
  },
});
