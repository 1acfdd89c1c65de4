import type { Hono } from 'hono';
import * as z from 'zod';
import { loadPipeline } from '../../compiler/compile.js';
import { parseVarsDeclaration } from '../../compiler/vars/pipeline-vars.js';
import type { PipelineDescriptionJson } from '../../shared/server-responses.js';
import { jsonBody } from '../json-body.js';
import { listPipelineFiles } from '../list-pipeline-files.js';
import { readDotPath } from '../read-dot-path.js';
import type { ServerOptions } from '../server-options.js';
import { INLINE_SOURCE, serverReadScope } from '../server-read-scope.js';

const DescribeRequestSchema = z
  .object({ dot_source: z.string().min(1).optional(), dot_path: z.string().min(1).optional() })
  .strict()
  .refine((b) => (b.dot_source === undefined) !== (b.dot_path === undefined), {
    message: 'give exactly one of "dot_source" and "dot_path"',
  });

/**
 * What the start form needs before a run exists: the pipelines in the allowed folders, and a
 * pipeline's name, goal and declared parameters (`vars`) with their defaults.
 */
export function registerPipelineSourceRoutes(app: Hono, options: ServerOptions): void {
  app.get('/pipeline-files', (c) => c.json(listPipelineFiles(options.allowDirs)));

  app.post('/describe', async (c) => {
    const body = DescribeRequestSchema.parse(await jsonBody(c.req.raw));
    const { file, source } =
      body.dot_path !== undefined
        ? (({ file, text }) => ({ file, source: text }))(readDotPath(body.dot_path, options.allowDirs))
        : { file: INLINE_SOURCE, source: body.dot_source as string };
    const { graph, diagnostics } = loadPipeline(source, {
      file,
      readScope: serverReadScope(file, options.allowDirs),
    });
    return c.json({
      name: graph.name,
      goal: graph.attrs.goal ?? '',
      vars: parseVarsDeclaration(graph.attrs.vars),
      errors: diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
    } satisfies PipelineDescriptionJson);
  });
}
