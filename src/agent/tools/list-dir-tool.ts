import * as z from 'zod';
import type { DirEntry } from '../environment/execution-environment.js';
import { defineTool } from './define-tool.js';
import { describeFailure, success } from './describe-failure.js';

/** Two spaces per level, `/` after directories, `({n} bytes)` after files. */
export function formatListing(entries: readonly DirEntry[]): string {
  return entries
    .map((e) => `${'  '.repeat(e.depth - 1)}${e.isDir ? `${e.name}/` : `${e.name} (${e.size} bytes)`}`)
    .join('\n');
}

export const listDirTool = defineTool({
  name: 'list_dir',
  description:
    'List a directory: subdirectories end with `/`, files show their size. Use depth to see deeper levels.',
  parameters: z.object({
    path: z.string().min(1).describe('Directory path to list.'),
    depth: z.number().int().min(1).optional().describe('How many levels deep to list. Default: 1.'),
  }),
  async execute({ path, depth = 1 }, { env }) {
    let entries: DirEntry[];
    try {
      entries = await env.listDirectory(path, depth);
    } catch (error) {
      return describeFailure(error);
    }
    return success(entries.length > 0 ? formatListing(entries) : `${path}: (empty directory)`);
  },
});
