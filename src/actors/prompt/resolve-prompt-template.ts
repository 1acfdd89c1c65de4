import { readNamedFile } from '../../compiler/files/read-named-file.js';
import { defaultReadScope } from '../../compiler/files/read-scope.js';
import type { PipelineGraph, PipelineNode } from '../../compiler/ir.js';
import { promptIncludePath } from '../../compiler/transforms/prompt-include.js';

export type PromptTemplate = { ok: true; text: string } | { ok: false; reason: string };

/**
 * The node's prompt before `{key}` expansion: `prompt`, else `label`, else the node id.
 * The compiler inlines `@file` prompts; one that still reads `@path` here was not loaded (a graph built
 * in code, a label used as the prompt, or a file deleted since compiling), so it is read now, inside the
 * graph's read scope like every file a pipeline names, and the reason is reported when it cannot be.
 */
export function resolvePromptTemplate(
  node: PipelineNode,
  graph: Pick<PipelineGraph, 'file' | 'readScope'>,
): PromptTemplate {
  const text = node.attrs.prompt || node.attrs.label || node.id;
  const include = promptIncludePath(text);
  if (include === undefined) return { ok: true, text };
  const read = readNamedFile(
    include,
    graph.readScope ?? defaultReadScope(graph.file),
    `the prompt of node "${node.id}"`,
  );
  return read.ok ? { ok: true, text: read.text } : { ok: false, reason: read.message };
}
