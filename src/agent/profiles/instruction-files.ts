import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface InstructionFile {
  /** Absolute path. */
  path: string;
  content: string;
}

/** The budget for project instruction files, and the marker that says they were cut. */
export const INSTRUCTIONS_BUDGET_BYTES = 32 * 1024;
export const INSTRUCTIONS_TRUNCATED_MARKER = '[Project instructions truncated at 32KB]';

/** Directories from `root` down to `cwd` (both included); just `cwd` when it is not inside `root`. */
export function directoriesFromRoot(root: string, cwd: string): string[] {
  const relative = path.relative(root, cwd);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return [cwd];
  const dirs = [root];
  let current = root;
  for (const segment of relative.split(path.sep).filter(Boolean)) {
    current = path.join(current, segment);
    dirs.push(current);
  }
  return dirs;
}

/**
 * The instruction files a profile loads (`names`, e.g. AGENTS.md and CLAUDE.md), walking from the git root (or
 * the working directory outside a repository) down to the working directory. Shallow files come first, so the
 * deeper, more specific ones are read last and take precedence. Read with node:fs, not the agent's confined
 * environment, because the root usually lies above the working directory.
 */
export async function discoverInstructionFiles(options: {
  workingDirectory: string;
  gitRoot?: string;
  names: readonly string[];
}): Promise<InstructionFile[]> {
  const dirs = directoriesFromRoot(options.gitRoot ?? options.workingDirectory, options.workingDirectory);
  const found: InstructionFile[] = [];
  for (const dir of dirs) {
    for (const name of options.names) {
      const file = path.join(dir, name);
      try {
        found.push({ path: file, content: await readFile(file, 'utf8') });
      } catch {
        // Absent (or unreadable) instruction files are simply not there.
      }
    }
  }
  return found;
}

/**
 * The project-instructions layer: each file under a heading naming it, the whole cut at the 32 KB budget with
 * the marker; empty when there are no files. Pure.
 */
export function renderProjectInstructions(
  files: readonly InstructionFile[],
  budgetBytes = INSTRUCTIONS_BUDGET_BYTES,
): string {
  if (files.length === 0) return '';
  const text = files.map((file) => `## ${file.path}\n\n${file.content.trimEnd()}`).join('\n\n');
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= budgetBytes) return text;
  // Cutting bytes may split a character; the decoder drops the broken tail as a replacement char we trim.
  const cut = bytes
    .subarray(0, budgetBytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return `${cut}\n${INSTRUCTIONS_TRUNCATED_MARKER}`;
}
