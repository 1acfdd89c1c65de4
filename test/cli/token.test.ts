/** `attractor token create|list|revoke`: what the store keeps, what is printed, and bad input. */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileAuditLog } from '../../src/server/audit/file-audit-log.js';
import { verifyAuditChain } from '../../src/server/audit/verify-audit-chain.js';
import { tokenHash } from '../../src/server/auth/api-token.js';
import { localIdentity } from '../../src/shared/identity.js';
import { tempDir } from '../helpers/temp-dir.js';
import { createToken } from '../server/auth/token-fixtures.js';
import { runCli, STACK_LINE } from './run-cli.js';

describe('attractor token', () => {
  it('create keeps only the hash (mode 0600); list shows name, role and status; revoke marks it', async () => {
    const dataDir = tempDir();
    const token = await createToken(['--data-dir', dataDir], 'ci', 'operator', ['--expires', '90d']);
    const file = path.join(dataDir, 'tokens.json');
    const kept = readFileSync(file, 'utf8');
    expect(kept).not.toContain(token);
    expect(kept).toContain(tokenHash(token));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await createToken(['--data-dir', dataDir], 'viewer-bot', 'viewer');
    expect((await runCli(['token', 'revoke', 'viewer-bot', '--data-dir', dataDir])).code).toBe(0);
    const listed = await runCli(['token', 'list', '--data-dir', dataDir]);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+ROLE\s+STATUS\s+CREATED\s+EXPIRES$/);
    expect(lines[1]).toMatch(/^ci\s+operator\s+active\s+\S+\s+\d{4}-/);
    expect(lines[2]).toMatch(/^viewer-bot\s+viewer\s+revoked\s+\S+\s+never$/);
    const json = JSON.parse((await runCli(['token', 'list', '--json', '--data-dir', dataDir])).stdout);
    expect(json.map((t: { status: string }) => t.status)).toEqual(['active', 'revoked']);
    expect(JSON.stringify(json)).not.toMatch(/hash/);
  });

  const BAD: { args: string[]; says: RegExp }[] = [
    { args: ['create', '--name', 'ci', '--role', 'operator'], says: /--data-dir DIR .* or --store/ },
    { args: ['create', '--name', 'ci', '--role', 'boss', '--data-dir', 'D'], says: /boss/ },
    { args: ['create', '--name', 'c i', '--role', 'viewer', '--data-dir', 'D'], says: /token name/ },
    {
      args: ['create', '--name', 'ci', '--role', 'viewer', '--expires', 'soon', '--data-dir', 'D'],
      says: /not an age/,
    },
    { args: ['create', '--name', 'ci', '--role', 'viewer', '--store', 'mysql://x'], says: /PostgreSQL URL/ },
    { args: ['revoke', 'nobody', '--data-dir', 'D'], says: /no live token is named "nobody"/ },
  ];
  it.each(BAD)('refuses `token $args` with a clear error, no stack trace', async ({ args, says }) => {
    const dataDir = tempDir();
    const result = await runCli(['token', ...args.map((a) => (a === 'D' ? dataDir : a))]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(says);
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it('appends each create and revoke, made or refused, to the data dir audit trail as the OS user', async () => {
    const dataDir = tempDir();
    await createToken(['--data-dir', dataDir], 'ci', 'operator');
    expect((await runCli(['token', 'revoke', 'ci', '--data-dir', dataDir])).code).toBe(0);
    expect((await runCli(['token', 'revoke', 'ci', '--data-dir', dataDir])).code).not.toBe(0);
    // Listing changes nothing: not audited.
    expect((await runCli(['token', 'list', '--data-dir', dataDir])).code).toBe(0);
    const verdict = verifyAuditChain(await new FileAuditLog(dataDir).lines());
    expect(verdict.ok).toBe(true);
    const who = localIdentity();
    expect(verdict.entries.map(({ seq, at, prev, hash, ...event }) => event)).toEqual([
      { who, action: 'token-create', subject: 'ci', role: 'operator', outcome: 'ok', status: 0 },
      { who, action: 'token-revoke', subject: 'ci', role: 'operator', outcome: 'ok', status: 0 },
      {
        who,
        action: 'token-revoke',
        subject: 'ci',
        outcome: 'refused',
        status: 1,
        error_code: 'TOKEN_NOT_FOUND',
      },
    ]);
    const verify = await runCli(['audit', '--verify', '--data-dir', dataDir]);
    expect(verify.stdout).toMatch(/3 entries, chain intact/);
    expect(verify.code).toBe(0);
  });

  it('refuses a second live token of the same name', async () => {
    const dataDir = tempDir();
    await createToken(['--data-dir', dataDir], 'ci', 'viewer');
    const again = await runCli(['token', 'create', '--data-dir', dataDir, '--name', 'ci', '--role', 'admin']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/a token named "ci" exists and is not revoked/);
  });
});
