import { readFileSync } from 'node:fs';
import type { ReadTextFileRequest, WriteTextFileRequest } from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import { confineToWorkspace } from './confine-to-workspace.js';

function confined(requested: string, roots: readonly string[]): string {
  const file = confineToWorkspace(requested, roots);
  if (file === undefined) {
    throw RequestError.invalidParams(
      { path: requested },
      `${requested} is outside the working directory; this client only reads and writes files inside it`,
    );
  }
  return file;
}

/** ACP `fs/read_text_file`: `line` is 1-based, `limit` a number of lines. Confined to `roots`. */
export function readTextFile(request: ReadTextFileRequest, roots: readonly string[]): string {
  const file = confined(request.path, roots);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw RequestError.resourceNotFound(request.path);
  }
  if (request.line == null && request.limit == null) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (request.line ?? 1) - 1);
  const end = request.limit == null ? lines.length : start + request.limit;
  return lines.slice(start, end).join('\n');
}

/** ACP `fs/write_text_file`: creates parent directories, replaces the file atomically. Confined to `roots`. */
export function writeTextFile(request: WriteTextFileRequest, roots: readonly string[]): string {
  const file = confined(request.path, roots);
  writeFileAtomic(file, request.content, { durable: false });
  return file;
}
