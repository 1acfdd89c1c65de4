import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PipelineGraph } from '../ir.js';
import { PromptIncludeError } from './prompt-include-error.js';
import type { Transform, TransformContext } from './transform.js';

/** The whole prompt is one `@path` token; a prompt that merely contains `@` is left alone. */
const INCLUDE = /^@(\S+)$/;

/** The path of a `@path/to/file.md` prompt, or undefined when the prompt is not an include. */
export function promptIncludePath(prompt: string): string | undefined {
  return INCLUDE.exec(prompt.trim())?.[1];
}

/** Same cap as the DOT parser's input: a prompt larger than a whole pipeline is a mistake. */
export const MAX_PROMPT_FILE_BYTES = 10 * 1024 * 1024;

/** Thrown by the default reader for what is readable but is not a prompt file; its message is the reason. */
class NotAPromptFile extends Error {}

/**
 * Reads a regular file only: a device or FIFO (`@/dev/zero`, `@/dev/stdin`) would block or never end,
 * and checking the size on the open descriptor leaves no window between the check and the read.
 */
function readUtf8(absPath: string): string {
  const fd = openSync(absPath, 'r');
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile())
      throw new NotAPromptFile(stat.isDirectory() ? 'it is a directory' : 'it is not a regular file');
    if (stat.size > MAX_PROMPT_FILE_BYTES) {
      throw new NotAPromptFile(`it is ${stat.size} bytes, over the 10 MB limit for a prompt file`);
    }
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Loads a `@path` prompt relative to the DOT file's directory (the working directory when the graph
 * has no file). Returns undefined when the prompt is not an include.
 *
 * @throws PromptIncludeError when the file cannot be read.
 * @example
 * resolvePromptInclude('@prompts/plan.md', '/repo/pipelines/build.dot');
 * // { path: '/repo/pipelines/prompts/plan.md', content: '...' }
 */
export function resolvePromptInclude(
  prompt: string,
  graphFile: string | undefined,
  options: { readFile?: (absPath: string) => string; nodeId?: string } = {},
): { path: string; content: string } | undefined {
  const include = promptIncludePath(prompt);
  if (include === undefined) return undefined;
  const base = graphFile ? path.dirname(path.resolve(graphFile)) : process.cwd();
  const resolved = path.resolve(base, include);
  try {
    return { path: resolved, content: (options.readFile ?? readUtf8)(resolved) };
  } catch (cause) {
    throw new PromptIncludeError(include, resolved, {
      cause,
      ...(options.nodeId ? { nodeId: options.nodeId } : {}),
      ...(cause instanceof NotAPromptFile ? { reason: cause.message } : {}),
    });
  }
}

/**
 * Replaces `prompt="@file.md"` by the file's content (docs/decisions.md). A missing file is a warning
 * (`prompt_file_missing`) and the prompt stays as written, so the codergen handler can fail clearly if
 * the node actually runs.
 */
export const promptIncludeTransform: Transform = {
  name: 'prompt-include',
  apply(graph: PipelineGraph, ctx: TransformContext): PipelineGraph {
    let changed = false;
    const nodes = graph.nodes.map((node) => {
      const prompt = node.attrs.prompt;
      if (prompt === undefined || promptIncludePath(prompt) === undefined) return node;
      try {
        const included = resolvePromptInclude(prompt, graph.file, {
          ...(ctx.readFile ? { readFile: ctx.readFile } : {}),
          nodeId: node.id,
        });
        if (!included) return node;
        changed = true;
        return { ...node, attrs: { ...node.attrs, prompt: included.content } };
      } catch (error) {
        if (!(error instanceof PromptIncludeError)) throw error;
        const loc = node.attrLocs['prompt'] ?? node.loc;
        ctx.diagnostics.push({
          rule: 'prompt_file_missing',
          severity: 'warning',
          message: error.message,
          node_id: node.id,
          fix: `create ${error.resolvedPath} or fix the path after "@"`,
          loc,
        });
        return node;
      }
    });
    return changed ? { ...graph, nodes } : graph;
  },
};
