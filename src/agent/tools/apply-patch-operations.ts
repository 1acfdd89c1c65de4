import type { FileChange } from '../environment/execution-environment.js';
import { extraIndent, findHunkLines } from './find-hunk-lines.js';
import type { Hunk, PatchOperation } from './parse-patch.js';

/** A hunk or file that cannot be applied; the whole patch is then refused and nothing is written. */
export class PatchApplyError extends Error {
  override name = 'PatchApplyError';
}

export interface PatchPlan {
  changes: FileChange[];
  /** `A path`, `M path`, `M old -> new`, `D path`, in patch order. */
  summary: string[];
}

/**
 * Computes every file's new content from the operations without writing anything, reading through
 * `readFile` (which returns undefined for a missing file) and seeing earlier operations of the same patch.
 * Any failure throws before a single change exists, which is what makes the patch atomic.
 */
export async function planPatch(
  ops: readonly PatchOperation[],
  readFile: (path: string) => Promise<string | undefined>,
): Promise<PatchPlan> {
  const pending = new Map<string, string | null>();
  const current = async (path: string) =>
    pending.has(path) ? (pending.get(path) ?? undefined) : readFile(path);
  const summary: string[] = [];
  for (const op of ops) {
    if (op.kind === 'add') {
      if ((await current(op.path)) !== undefined) {
        throw new PatchApplyError(
          `Error: cannot add ${op.path}: the file already exists (use "*** Update File:")`,
        );
      }
      pending.set(op.path, op.content);
      summary.push(`A ${op.path}`);
    } else if (op.kind === 'delete') {
      if ((await current(op.path)) === undefined)
        throw new PatchApplyError(`Error: file not found: ${op.path}`);
      pending.set(op.path, null);
      summary.push(`D ${op.path}`);
    } else {
      const text = await current(op.path);
      if (text === undefined) throw new PatchApplyError(`Error: file not found: ${op.path}`);
      const updated = applyHunks(text, op.hunks, op.path);
      if (op.moveTo !== undefined && op.moveTo !== op.path) {
        if ((await current(op.moveTo)) !== undefined) {
          throw new PatchApplyError(
            `Error: cannot move ${op.path} to ${op.moveTo}: the target already exists`,
          );
        }
        pending.set(op.path, null);
        pending.set(op.moveTo, updated);
        summary.push(`M ${op.path} -> ${op.moveTo}`);
      } else {
        pending.set(op.path, updated);
        summary.push(`M ${op.path}`);
      }
    }
  }
  return { changes: [...pending].map(([path, content]) => ({ path, content })), summary };
}

/** The file's text with every hunk applied in order; line endings of the file are kept. */
export function applyHunks(text: string, hunks: readonly Hunk[], path: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  // A new line at the end stays (and an empty file gets one once it has lines); a missing one stays missing.
  const endsWithNewline = text === '' || text.endsWith('\n');
  const lines = text === '' ? [] : text.split(/\r?\n/);
  if (text.endsWith('\n')) lines.pop();
  const edits: { at: number; remove: number; insert: string[] }[] = [];
  let cursor = 0;
  hunks.forEach((hunk, index) => {
    const before = hunk.lines.filter((l) => l.kind !== '+').map((l) => l.text);
    let from = cursor;
    if (hunk.hint !== '') {
      const hinted = findHunkLines(lines, [hunk.hint], cursor);
      // The hint line may itself be the hunk's first context line, so the search starts on it, not after it.
      if (hinted !== -1) from = hinted;
    }
    let at: number;
    if (before.length === 0) {
      at = hunk.hint !== '' && from > cursor ? from + 1 : lines.length;
    } else {
      at = findHunkLines(lines, before, from, hunk.endOfFile);
      if (at === -1 && from > cursor) at = findHunkLines(lines, before, cursor, hunk.endOfFile);
      if (at === -1) {
        throw new PatchApplyError(
          `Error: hunk ${index + 1} of ${path} does not match the file; these lines were not found${
            hunk.hint ? ` after "${hunk.hint}"` : ''
          }:\n${before.join('\n')}`,
        );
      }
    }
    edits.push({ at, remove: before.length, insert: replacement(hunk, lines.slice(at, at + before.length)) });
    cursor = at + before.length;
  });
  for (const edit of edits.reverse()) lines.splice(edit.at, edit.remove, ...edit.insert);
  return lines.length === 0 ? '' : lines.join(eol) + (endsWithNewline ? eol : '');
}

/**
 * The lines a matched hunk becomes: context lines keep the file's own text (a fuzzy match must not rewrite
 * them), added lines are the patch's, shifted by the indentation the file consistently has in addition to
 * the patch's (a model that got the nesting level wrong still produces code at the right level).
 */
function replacement(hunk: Hunk, matched: readonly string[]): string[] {
  const extra = extraIndent(
    hunk.lines.filter((l) => l.kind !== '+').map((l) => l.text),
    matched,
  );
  const out: string[] = [];
  let k = 0;
  for (const line of hunk.lines) {
    if (line.kind === ' ') out.push(matched[k++] ?? line.text);
    else if (line.kind === '-') k++;
    else out.push(line.text.trim() === '' ? line.text : extra + line.text);
  }
  return out;
}
