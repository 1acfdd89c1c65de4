import type { Diagnostic } from '../diagnostic.js';
import type { PipelineGraph } from '../ir.js';
import { promptIncludePath } from '../transforms/prompt-include.js';
import { type NamedFileReader, readNamedFile } from './read-named-file.js';
import { defaultReadScope } from './read-scope.js';

/**
 * The files a graph names that the `@file` transform does not inline, checked the way a run will read
 * them: the child DOT file of every manager loop that starts one, and the `@file` label a codergen node
 * without a prompt uses as its prompt. Outside the read scope: `file_not_allowed`; missing or not a
 * regular file: `child_dotfile_missing` / `prompt_file_missing`. All errors, located at the attribute.
 */
export function checkNamedFiles(graph: PipelineGraph, reader?: NamedFileReader): Diagnostic[] {
  const scope = graph.readScope ?? defaultReadScope(graph.file);
  const diagnostics: Diagnostic[] = [];
  for (const node of graph.nodes) {
    if (node.handler === 'stack.manager_loop') {
      const autostart = node.attrs['stack.child_autostart'] ?? graph.attrs['stack.child_autostart'] ?? true;
      const onNode = node.attrs['stack.child_dotfile'];
      const child = onNode ?? graph.attrs['stack.child_dotfile'];
      if (!autostart || child === undefined || child.trim() === '') continue;
      const read = readNamedFile(child, scope, `the child pipeline of manager node "${node.id}"`, reader);
      if (read.ok) continue;
      diagnostics.push({
        rule: read.kind === 'not_allowed' ? 'file_not_allowed' : 'child_dotfile_missing',
        severity: 'error',
        message: read.message,
        node_id: node.id,
        fix: read.fix,
        loc:
          (onNode !== undefined
            ? node.attrLocs['stack.child_dotfile']
            : graph.attrLocs['stack.child_dotfile']) ?? node.loc,
      });
    } else if (node.handler === 'codergen' && !node.attrs.prompt && node.attrs.label) {
      const include = promptIncludePath(node.attrs.label);
      if (include === undefined) continue;
      const read = readNamedFile(include, scope, `the label (used as prompt) of node "${node.id}"`, reader);
      if (read.ok) continue;
      diagnostics.push({
        rule: read.kind === 'not_allowed' ? 'file_not_allowed' : 'prompt_file_missing',
        severity: 'error',
        message: read.message,
        node_id: node.id,
        fix: read.fix,
        loc: node.attrLocs['label'] ?? node.loc,
      });
    }
  }
  return diagnostics;
}
