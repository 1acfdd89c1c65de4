import path from 'node:path';
import * as z from 'zod';
import { type StoredToken, StoredTokenSchema } from './api-token.js';
import { StampedJsonFile } from './stamped-json-file.js';
import type { TokenStore } from './token-store.js';
import { tokenExists, tokenNotFound } from './token-store-errors.js';

const TokensFileSchema = z.object({ version: z.literal(1), tokens: z.array(StoredTokenSchema) });

/**
 * Tokens in `<data dir>/tokens.json` (mode 0600), replaced atomically by `attractor token`. The server
 * re-reads it only when its size or modification time changed, so a check costs one stat.
 */
export class FileTokenStore implements TokenStore {
  readonly #file: StampedJsonFile<z.infer<typeof TokensFileSchema>>;

  get file(): string {
    return this.#file.file;
  }

  constructor(dataDir: string) {
    this.#file = new StampedJsonFile(
      path.join(dataDir, 'tokens.json'),
      TokensFileSchema,
      { version: 1, tokens: [] },
      'BAD_TOKENS_FILE',
    );
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
    return this.#file.read().tokens;
  }

  #write(tokens: StoredToken[]): void {
    this.#file.write({ version: 1, tokens });
  }
}
