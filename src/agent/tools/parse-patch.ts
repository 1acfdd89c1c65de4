import { definedFields } from '../../shared/defined-fields.js';
import { AttractorError } from '../../shared/errors.js';

/** One line of a hunk: context (` `), removed (`-`) or added (`+`). */
export interface HunkLine {
  kind: ' ' | '-' | '+';
  text: string;
}

export interface Hunk {
  /** The text after `@@ `, a line (a function or class header) the hunk comes after; may be empty. */
  hint: string;
  lines: HunkLine[];
  /** `*** End of File`: the hunk's lines end the file. */
  endOfFile: boolean;
}

export type PatchOperation =
  | { kind: 'add'; path: string; content: string }
  | { kind: 'delete'; path: string }
  | { kind: 'update'; path: string; moveTo?: string; hunks: Hunk[] };

/** A patch that does not follow the envelope grammar; its message names the line and what was expected. */
export class PatchParseError extends AttractorError {
  constructor(message: string) {
    super('agent.patch_invalid', `Error: invalid patch: ${message}`);
    this.name = 'PatchParseError';
  }
}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const END_OF_FILE = '*** End of File';

/**
 * Parses the `*** Begin Patch` … `*** End Patch` envelope (the v4a patch format): Add File
 * with `+` lines, Delete File, Update File with an optional `*** Move to:` and `@@` hunks. Lenient where
 * models often slip and the meaning is still clear: text around the envelope (a ```` ``` ```` fence), CRLF,
 * trailing spaces on marker lines, a blank hunk line without its leading space, and a first hunk without
 * an `@@` line.
 *
 * @example
 * parsePatch('*** Begin Patch\n*** Delete File: old.txt\n*** End Patch')
 * // [{ kind: 'delete', path: 'old.txt' }]
 */
export function parsePatch(patch: string): PatchOperation[] {
  const lines = patch.replace(/\r\n/g, '\n').split('\n');
  const begin = lines.findIndex((l) => l.trim() === BEGIN);
  if (begin === -1) throw new PatchParseError(`the patch must start with "${BEGIN}"`);
  const end = lines.findIndex((l, i) => i > begin && l.trim() === END);
  if (end === -1) throw new PatchParseError(`the patch must end with "${END}"`);
  const body = lines.slice(begin + 1, end);
  const lineNo = (i: number) => begin + 2 + i;
  const ops: PatchOperation[] = [];
  let i = 0;
  while (i < body.length) {
    const line = body[i]!;
    if (line.trim() === '') {
      i++;
    } else if (line.startsWith(ADD)) {
      const path = fileName(line, ADD, lineNo(i));
      const content: string[] = [];
      for (i++; i < body.length && !body[i]!.startsWith('*** '); i++) {
        const added = body[i]!;
        if (!added.startsWith('+')) {
          throw new PatchParseError(`line ${lineNo(i)}: every line of an added file must start with "+"`);
        }
        content.push(added.slice(1));
      }
      ops.push({ kind: 'add', path, content: content.length > 0 ? `${content.join('\n')}\n` : '' });
    } else if (line.startsWith(DELETE)) {
      ops.push({ kind: 'delete', path: fileName(line, DELETE, lineNo(i)) });
      i++;
    } else if (line.startsWith(UPDATE)) {
      const path = fileName(line, UPDATE, lineNo(i));
      i++;
      let moveTo: string | undefined;
      if (i < body.length && body[i]!.startsWith(MOVE)) {
        moveTo = fileName(body[i]!, MOVE, lineNo(i));
        i++;
      }
      const hunks: Hunk[] = [];
      while (i < body.length && !isFileHeader(body[i]!)) {
        const [hunk, next] = parseHunk(body, i, lineNo);
        hunks.push(hunk);
        i = next;
      }
      if (hunks.length === 0 && moveTo === undefined) {
        throw new PatchParseError(`line ${lineNo(i - 1)}: "${UPDATE}${path}" has no hunks`);
      }
      ops.push({ kind: 'update', path, ...definedFields({ moveTo }), hunks });
    } else {
      throw new PatchParseError(
        `line ${lineNo(i)}: expected "${ADD}", "${DELETE}" or "${UPDATE}", found "${line.slice(0, 80)}"`,
      );
    }
  }
  return ops;
}

function isFileHeader(line: string): boolean {
  return line.startsWith(ADD) || line.startsWith(DELETE) || line.startsWith(UPDATE);
}

function fileName(line: string, prefix: string, lineNumber: number): string {
  const name = line.slice(prefix.length).trim();
  if (name === '') throw new PatchParseError(`line ${lineNumber}: "${prefix.trim()}" needs a path`);
  return name;
}

function parseHunk(body: readonly string[], start: number, lineNo: (i: number) => number): [Hunk, number] {
  let i = start;
  let hint = '';
  const header = body[i]!;
  if (header.startsWith('@@')) {
    hint = header.slice(2).trim();
    i++;
  }
  const lines: HunkLine[] = [];
  let endOfFile = false;
  // Bare empty lines at the end are the gap before the next file section, not context of this hunk.
  let bareBlanks = 0;
  for (; i < body.length; i++) {
    const line = body[i]!;
    if (line.startsWith('@@') || isFileHeader(line)) break;
    if (line.trim() === END_OF_FILE) {
      endOfFile = true;
      i++;
      break;
    }
    const kind = line[0];
    if (kind === ' ' || kind === '-' || kind === '+') {
      lines.push({ kind, text: line.slice(1) });
      bareBlanks = 0;
    } else if (line === '') {
      lines.push({ kind: ' ', text: '' });
      bareBlanks++;
    } else throw new PatchParseError(`line ${lineNo(i)}: a hunk line must start with " ", "-" or "+"`);
  }
  if (!endOfFile) lines.splice(lines.length - bareBlanks, bareBlanks);
  if (lines.length === 0) throw new PatchParseError(`line ${lineNo(start)}: empty hunk`);
  return [{ hint, lines, endOfFile }, i];
}
