import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { AttractorError } from '../../shared/errors.js';
import { type AuditHead, canonicalLine, chainEntry, EMPTY_HEAD } from './audit-chain.js';
import type { AuditEvent } from './audit-entry.js';
import type { AuditLog } from './audit-log.js';
import { readLastLine } from './read-last-line.js';
import { parseAuditLine } from './verify-audit-chain.js';

/**
 * The trail in `<data dir>/audit.jsonl`, one canonical entry a line, appended and fsynced before
 * `append` resolves. Each append links to the file's last line as it is then, not to one remembered:
 * a command appending between a server's appends (a token created from the shell) keeps one chain.
 * A process's own appends are queued one after another; two processes appending at the same instant
 * could still both link to one line, which `verifyAuditChain` reports.
 */
export class FileAuditLog implements AuditLog {
  readonly where: string;
  #queue: Promise<void> = Promise.resolve();

  constructor(dataDir: string) {
    this.where = path.join(path.resolve(dataDir), 'audit.jsonl');
  }

  append(event: AuditEvent): Promise<void> {
    const appended = this.#queue.then(() => this.#write(event));
    this.#queue = appended.catch(() => {});
    return appended;
  }

  async lines(): Promise<string[]> {
    if (!existsSync(this.where)) return [];
    return readFileSync(this.where, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
  }

  async close(): Promise<void> {
    await this.#queue;
  }

  async #write(event: AuditEvent): Promise<void> {
    const created = !existsSync(this.where);
    if (created) mkdirSync(path.dirname(this.where), { recursive: true });
    const fd = openSync(this.where, 'a+', 0o600);
    try {
      const entry = chainEntry(event, this.#head(fd), new Date());
      writeSync(fd, `${canonicalLine(entry)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // A new file's name is durable only once its folder is.
    if (created) syncFolder(path.dirname(this.where));
  }

  /** The last line's place and hash; a torn or foreign last line is refused, not chained onto. */
  #head(fd: number): AuditHead {
    const last = readLastLine(fd);
    if (last === undefined) return EMPTY_HEAD;
    const entry = last.whole ? parseAuditLine(last.line) : undefined;
    if (entry === undefined) {
      throw new AttractorError(
        'AUDIT_LOG_DAMAGED',
        `${this.where}: its last line is not a whole audit entry; run \`attractor audit --verify\` and repair the file before the server appends to it.`,
      );
    }
    return { seq: entry.seq, hash: entry.hash };
  }
}

function syncFolder(folder: string): void {
  const fd = openSync(folder, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
