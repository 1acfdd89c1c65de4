import * as z from 'zod';
import { defineTool } from './define-tool.js';
import { describeFailure, success } from './describe-failure.js';

export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Create a file or replace its whole content. Parent directories are created. Prefer editing for small changes to existing files.',
  parameters: z.object({
    file_path: z.string().min(1).describe('Absolute or relative path for the file.'),
    content: z.string().describe('The full content to write.'),
  }),
  aliases: { path: 'file_path' },
  async execute({ file_path: path, content }, { env }) {
    try {
      await env.writeFile(path, content);
    } catch (error) {
      return describeFailure(error);
    }
    return success(`Successfully wrote to ${path}`);
  },
});
