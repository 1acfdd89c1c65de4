import { readNamedFile } from '../files/read-named-file.js';
import { defaultReadScope } from '../files/read-scope.js';
import type { PipelineGraph } from '../ir.js';
import type { Transform, TransformContext } from './transform.js';

/** The whole prompt is one `@path` token; a prompt that merely contains `@` is left alone. */
const INCLUDE = /^@(\S+)$/;

/** The path of a `@path/to/file.md` prompt, or undefined when the prompt is not an include. */
export function promptIncludePath(prompt: string): string | undefined {
  return INCLUDE.exec(prompt.trim())?.[1];
}

/**
 * Replaces `prompt="@file.md"` by the file's content, read inside the graph's read scope
 * (`graph.readScope`: the DOT file's folder and the working directory unless the caller says otherwise).
 * A file outside the scope is a `file_not_allowed` error; one that is missing, not a regular file or
 * too large is a `prompt_file_missing` error (docs/decisions/0101-pipelines-read-only-inside-their-folders.md).
 * Either way the prompt stays as written, so nothing from outside ever reaches the graph.
 */
export const promptIncludeTransform: Transform = {
  name: 'prompt-include',
  apply(graph: PipelineGraph, ctx: TransformContext): PipelineGraph {
    const scope = graph.readScope ?? defaultReadScope(graph.file);
    let changed = false;
    const nodes = graph.nodes.map((node) => {
      const prompt = node.attrs.prompt;
      const include = prompt === undefined ? undefined : promptIncludePath(prompt);
      if (include === undefined) return node;
      const read = readNamedFile(include, scope, `the prompt of node "${node.id}"`, ctx.readFile);
      if (read.ok) {
        changed = true;
        return { ...node, attrs: { ...node.attrs, prompt: read.text } };
      }
      ctx.diagnostics.push({
        rule: read.kind === 'not_allowed' ? 'file_not_allowed' : 'prompt_file_missing',
        severity: 'error',
        message: read.message,
        node_id: node.id,
        fix: read.fix,
        loc: node.attrLocs['prompt'] ?? node.loc,
      });
      return node;
    });
    return changed ? { ...graph, nodes } : graph;
  },
};
