import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import { AttractorError } from '../../shared/errors.js';
import { type StoredToken, StoredTokenSchema } from './api-token.js';
import type { TokenStore } from './token-store.js';
import { tokenExists, tokenNotFound } from './token-store-errors.js';

const TokensFileSchema = z.object({ version: z.literal(1), tokens: z.array(StoredTokenSchema) });

/**
 * Tokens in `<data dir>/tokens.json` (mode 0600), replaced atomically by `attractor token`. The server
 * re-reads it only when its size or modification time changed, so a check costs one stat.
 */
export class FileTokenStore implements TokenStore {
  readonly file: string;
  #cached: { stamp: string; tokens: StoredToken[] } | undefined;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'tokens.json');
  }

  async create(token: StoredToken): Promise<void> {
    const tokens = this.#read();
    if (tokens.some((t) => t.name === token.name && t.revoked_at === undefined))
      throw tokenExists(token.name);
    this.#write([...tokens, token]);
  }

  async list(): Promise<StoredToken[]> {
    return this.#read();
  }

  async byHash(hash: string): Promise<StoredToken | undefined> {
    return this.#read().find((t) => t.hash === hash);
  }

  async revoke(name: string, at: Date): Promise<StoredToken> {
    const tokens = this.#read();
    const live = tokens.find((t) => t.name === name && t.revoked_at === undefined);
    if (!live) throw tokenNotFound(name);
    const revoked = { ...live, revoked_at: at.toISOString() };
    this.#write(tokens.map((t) => (t === live ? revoked : t)));
    return revoked;
  }

  async configured(): Promise<boolean> {
    return this.#read().length > 0;
  }

  async close(): Promise<void> {}

  #read(): StoredToken[] {
    let stamp: string;
    try {
      const stat = statSync(this.file);
      stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    if (this.#cached?.stamp === stamp) return this.#cached.tokens;
    const parsed = TokensFileSchema.safeParse(parseJson(readFileSync(this.file, 'utf8')));
    if (!parsed.success) {
      throw new AttractorError(
        'BAD_TOKENS_FILE',
        `${this.file} is not a tokens file attractor wrote (${parsed.error.issues[0]?.message ?? 'invalid'}); restore it from a backup or remove it and create the tokens again.`,
      );
    }
    this.#cached = { stamp, tokens: parsed.data.tokens };
    return parsed.data.tokens;
  }

  #write(tokens: StoredToken[]): void {
    writeFileAtomic(this.file, `${JSON.stringify({ version: 1, tokens }, null, 2)}\n`, { mode: 0o600 });
    this.#cached = undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
