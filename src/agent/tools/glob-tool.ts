import * as z from 'zod';
import { defineTool } from './define-tool.js';
import { describeFailure, success } from './describe-failure.js';

export const globTool = defineTool({
  name: 'glob',
  description:
    'Find files whose path matches a glob pattern (e.g. "**/*.ts", "src/*.{js,mjs}"), newest first. `*` stays within one directory; `**` spans directories.',
  parameters: z.object({
    pattern: z.string().min(1).describe('Glob pattern (e.g. "**/*.py").'),
    path: z.string().optional().describe('Base directory for the search. Default: working directory.'),
  }),
  async execute({ pattern, path }, { env }) {
    let files: string[];
    try {
      files = await env.glob(pattern, path);
    } catch (error) {
      return describeFailure(error);
    }
    return success(files.length > 0 ? files.join('\n') : 'No files matched.');
  },
});
