import * as z from 'zod';
import { AttractorError } from '../../shared/errors.js';
import type { ExecutionEnvironment } from '../environment/execution-environment.js';
import { PatchApplyError, planPatch } from './apply-patch-operations.js';
import { defineTool } from './define-tool.js';
import { describeFailure, failure, success } from './describe-failure.js';
import { parsePatch } from './parse-patch.js';

const PATCH_FORMAT = `The patch format:
*** Begin Patch
*** Add File: path/new.txt
+first line of the new file
*** Delete File: path/old.txt
*** Update File: path/file.ts
*** Move to: path/renamed.ts   (optional)
@@ function or class the hunk is in (optional)
 context line (starts with a space)
-removed line
+added line
*** End Patch
Give about 3 lines of context above and below each change. All files change or none.`;

async function readIfExists(env: ExecutionEnvironment, path: string): Promise<string | undefined> {
  try {
    return await env.readFile(path);
  } catch (error) {
    if (AttractorError.isInstance(error) && error.code === 'agent.file_not_found') return undefined;
    throw error;
  }
}

export const applyPatchTool = defineTool({
  name: 'apply_patch',
  description: `Create, delete, move and edit files with one patch.\n${PATCH_FORMAT}`,
  parameters: z.object({
    patch: z.string().min(1).describe('The patch, from "*** Begin Patch" to "*** End Patch".'),
  }),
  async execute({ patch }, { env }) {
    try {
      const plan = await planPatch(parsePatch(patch), (path) => readIfExists(env, path));
      await env.applyChanges(plan.changes);
      return success(`Successfully applied patch:\n${plan.summary.join('\n')}`);
    } catch (error) {
      if (error instanceof PatchApplyError) return failure(`${error.message}\nNo file was changed.`);
      if (AttractorError.isInstance(error) && error.code === 'agent.patch_invalid') {
        return failure(`${error.message}\n${PATCH_FORMAT}`);
      }
      return describeFailure(error);
    }
  },
});
