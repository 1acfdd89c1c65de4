import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A node's changes as the node panel shows them (the snapshot's diff replaces an agent's own). */
export const PANEL_DIFF = 'diff.patch';
/** A diff reads from its start; a huge one is cut where a person would stop reading anyway. */
export const PANEL_DIFF_BYTES = 512 * 1024;
/** A tool's logs can be long: the panel shows their end. */
export const PANEL_LOG_TAIL_BYTES = 64 * 1024;
/** A prompt or response longer than this is kept cut (the whole is in the stage folder). */
const PANEL_TEXT_BYTES = 1024 * 1024;

/** The files of a stage the web view's node panel reads, and which end of each it keeps. */
const PANEL_FILES: readonly (readonly [string, 'head' | 'tail', number])[] = [
  ['prompt.md', 'head', PANEL_TEXT_BYTES],
  ['response.md', 'head', PANEL_TEXT_BYTES],
  ['stdout.log', 'tail', PANEL_LOG_TAIL_BYTES],
  ['stderr.log', 'tail', PANEL_LOG_TAIL_BYTES],
  [PANEL_DIFF, 'head', PANEL_DIFF_BYTES],
];

/**
 * What a stage's node panel shows, read from its folder (a missing file is left out): the record a
 * store keeps so any server shows a node another machine ran. A cut file says so with "…".
 */
export function readStagePanelFiles(stageDir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [name, end, limit] of PANEL_FILES) {
    const text = readEnd(join(stageDir, name), end, limit);
    if (text !== undefined) files[name] = text;
  }
  return files;
}

/** `limit` bytes from one end of a file (all of a shorter one), or undefined when it is missing. */
export function readEnd(file: string, end: 'head' | 'tail', limit: number): string | undefined {
  if (!existsSync(file)) return undefined;
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = statSync(file).size;
    const length = Math.min(size, limit);
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, end === 'tail' ? size - length : 0);
    const text = buffer.subarray(0, read).toString('utf8');
    if (size <= limit) return text;
    return end === 'tail' ? `…${text}` : `${text}\n… (cut)`;
  } finally {
    closeSync(fd);
  }
}
