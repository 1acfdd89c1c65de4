import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_PARSE_LIMITS } from '../compiler/parse/parse-limits.js';
import { AttractorError } from '../shared/errors.js';
import { readAtMost } from '../shared/read-at-most.js';

export interface PipelineSource {
  /** The path as the user wrote it (relative paths stay relative): what messages show. */
  file: string;
  /** Absolute path: what `@file` prompts and child dotfiles resolve against. */
  absolutePath: string;
  text: string;
}

/** Reads a pipeline file, refusing with one clear message what cannot be a DOT file. */
export function readPipelineSource(file: string, cwd: string): PipelineSource {
  // An empty argument (often an unset shell variable) would otherwise resolve to the working directory.
  if (file.trim() === '') {
    throw new AttractorError('FILE_UNREADABLE', 'no pipeline file given: the file argument is empty');
  }
  const absolutePath = path.resolve(cwd, file);
  let bytes: Buffer;
  try {
    bytes = readPipelineBytes(absolutePath, DEFAULT_PARSE_LIMITS.maxInputBytes, file);
  } catch (error) {
    if (AttractorError.isInstance(error)) throw error;
    throw new AttractorError('FILE_UNREADABLE', `${file}: ${describeFsError(error)}`, { cause: error });
  }

  const badByte = firstNonTextByte(bytes);
  if (badByte !== undefined) {
    throw new AttractorError(
      'FILE_NOT_TEXT',
      'this is binary data, not a DOT text file (expected UTF-8 text such as `digraph name { ... }`)',
      { location: { file, ...lineAndColumn(bytes, badByte) } },
    );
  }

  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') {
    throw new AttractorError(
      'FILE_EMPTY',
      'the file is empty; expected a pipeline such as `digraph name { ... }`',
      {
        location: { file, line: 1, column: 1 },
      },
    );
  }
  return { file, absolutePath, text };
}

/** The file's bytes, refusing more than `limit` (a device such as /dev/zero never ends). */
function readPipelineBytes(absolutePath: string, limit: number, shown: string): Buffer {
  const fd = openSync(absolutePath, 'r');
  try {
    const read = readAtMost(fd, limit);
    if (read.ok) return read.bytes;
    throw new AttractorError(
      'FILE_TOO_LARGE',
      `${shown}: larger than ${limit / (1024 * 1024)} MB, the most a pipeline file may be`,
    );
  } finally {
    closeSync(fd);
  }
}

function describeFsError(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'is a directory, expected a .dot file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return `cannot read the file (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** Index of the first NUL byte or invalid UTF-8 sequence, if any: both mean "not a text file". */
function firstNonTextByte(bytes: Buffer): number | undefined {
  const nul = bytes.indexOf(0);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(nul === -1 ? bytes : bytes.subarray(0, nul));
  } catch {
    return firstInvalidUtf8(bytes);
  }
  return nul === -1 ? undefined : nul;
}

function firstInvalidUtf8(bytes: Buffer): number {
  // Bisect on decodability of prefixes: cheap enough for the rare broken file.
  let good = 0;
  let bad = bytes.length;
  while (bad - good > 1) {
    const mid = (good + bad) >> 1;
    try {
      // stream: a prefix may end inside a valid multi-byte character.
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
      good = mid;
    } catch {
      bad = mid;
    }
  }
  return good;
}

function lineAndColumn(bytes: Buffer, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
