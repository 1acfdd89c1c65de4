import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { PipelineGraph, PipelineNode } from '../../compiler/ir.js';

export type PromptTemplate = { ok: true; text: string } | { ok: false; missingFile: string };

const FILE_REFERENCE = /^@(\S+)$/;

/**
 * The node's prompt before `{key}` expansion: `prompt`, else `label`, else the node id.
 * The compiler inlines `@file` prompts; one that still reads `@path` here was not loaded (a graph built
 * in code, or a file deleted since compiling), so we try once more relative to the DOT file and report
 * the missing path otherwise.
 */
export function resolvePromptTemplate(
  node: PipelineNode,
  graph: Pick<PipelineGraph, 'file'>,
): PromptTemplate {
  const text = node.attrs.prompt || node.attrs.label || node.id;
  const reference = FILE_REFERENCE.exec(text.trim());
  if (!reference) return { ok: true, text };
  const base = graph.file ? dirname(graph.file) : process.cwd();
  const path = resolve(base, reference[1]!);
  if (!existsSync(path)) return { ok: false, missingFile: path };
  return { ok: true, text: readFileSync(path, 'utf8') };
}
