import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { AttractorError } from '../../shared/errors.js';
import { type AuditHead, canonicalLine, chainEntry, EMPTY_HEAD } from './audit-chain.js';
import type { AuditEvent } from './audit-entry.js';
import type { AuditLog } from './audit-log.js';
import { parseAuditLine } from './verify-audit-chain.js';

/**
 * The trail in `<data dir>/audit.jsonl`, one canonical entry a line, appended and fsynced before
 * `append` resolves. One server writes a data directory, so the chain's head is kept in memory and
 * appends are queued one after another.
 */
export class FileAuditLog implements AuditLog {
  readonly where: string;
  #head: AuditHead | undefined;
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
    const head = this.#head ?? (await this.#readHead());
    const entry = chainEntry(event, head, new Date());
    const created = !existsSync(this.where);
    if (created) mkdirSync(path.dirname(this.where), { recursive: true });
    const fd = openSync(this.where, 'a', 0o600);
    try {
      writeSync(fd, `${canonicalLine(entry)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // A new file's name is durable only once its folder is.
    if (created) syncFolder(path.dirname(this.where));
    this.#head = { seq: entry.seq, hash: entry.hash };
  }

  /** The last line's place and hash; a torn or foreign last line is refused, not chained onto. */
  async #readHead(): Promise<AuditHead> {
    const text = existsSync(this.where) ? readFileSync(this.where, 'utf8') : '';
    if (text === '') return EMPTY_HEAD;
    const entry = text.endsWith('\n')
      ? parseAuditLine(text.slice(0, -1).split('\n').at(-1) ?? '')
      : undefined;
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
