/** `attractor role grant|revoke|list`: what the store keeps, what is printed, the audit trail, bad input. */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FileAuditLog } from '../../src/server/audit/file-audit-log.js';
import { verifyAuditChain } from '../../src/server/audit/verify-audit-chain.js';
import { localIdentity } from '../../src/shared/identity.js';
import { refusalOf } from '../docs/parse-command-line.js';
import { BIN, ensureDist, ROOT } from '../helpers/ensure-dist.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli, STACK_LINE } from './run-cli.js';

const role = (...args: string[]) => runCli(['role', ...args]);

describe('attractor role', () => {
  it('grant keeps the grant (roles.json, mode 0600); list shows them, filtered, as a table or JSON; revoke removes it', async () => {
    const dir = tempDir();
    const granted = await role(
      'grant',
      '--data-dir',
      dir,
      '--user',
      'alice@example.com',
      '--role',
      'approver',
    );
    expect(granted).toMatchObject({ code: 0, stderr: '' });
    expect(granted.stdout).toBe(
      'granted approver to user:alice@example.com; it holds from their next request\n',
    );
    expect((await role('grant', '--data-dir', dir, '--group', 'platform', '--role', 'operator')).code).toBe(
      0,
    );
    expect(statSync(path.join(dir, 'roles.json')).mode & 0o777).toBe(0o600);

    const lines = (await role('list', '--data-dir', dir)).stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^KIND\s+ID\s+ROLE\s+GRANTED\s+BY$/);
    expect(lines[1]).toMatch(
      new RegExp(`^user\\s+alice@example\\.com\\s+approver\\s+\\d{4}-\\S+\\s+${localIdentity()}$`),
    );
    expect(lines[2]).toMatch(/^group\s+platform\s+operator\s/);
    const onlyGroups = JSON.parse(
      (await role('list', '--data-dir', dir, '--group', 'platform', '--json')).stdout,
    );
    expect(onlyGroups).toEqual([
      expect.objectContaining({ grantee: { kind: 'group', id: 'platform' }, role: 'operator' }),
    ]);
    expect(JSON.parse((await role('list', '--data-dir', dir, '--role', 'viewer', '--json')).stdout)).toEqual(
      [],
    );

    const revoked = await role(
      'revoke',
      '--data-dir',
      dir,
      '--user',
      'alice@example.com',
      '--role',
      'approver',
    );
    expect(revoked.stdout).toBe(
      'revoked approver from user:alice@example.com; it is gone from their next request\n',
    );
    const left = JSON.parse((await role('list', '--data-dir', dir, '--json')).stdout);
    expect(left.map((g: { grantee: { id: string } }) => g.grantee.id)).toEqual(['platform']);
  });

  it('appends each grant and revoke, made or refused, to the audit trail as the OS user; list is not audited', async () => {
    const dir = tempDir();
    const args = ['--data-dir', dir, '--group', 'ops', '--role', 'viewer'];
    expect((await role('grant', ...args)).code).toBe(0);
    expect((await role('grant', ...args)).code).toBe(1);
    expect((await role('list', '--data-dir', dir)).code).toBe(0);
    expect((await role('revoke', ...args)).code).toBe(0);
    expect((await role('revoke', ...args)).code).toBe(1);
    const verdict = verifyAuditChain(await new FileAuditLog(dir).lines());
    expect(verdict.ok).toBe(true);
    const who = localIdentity();
    const base = { who, subject: 'group:ops', role: 'viewer' };
    expect(verdict.entries.map(({ seq, at, prev, hash, ...event }) => event)).toEqual([
      { ...base, action: 'role-grant', outcome: 'ok', status: 0 },
      { ...base, action: 'role-grant', outcome: 'refused', status: 1, error_code: 'ROLE_ALREADY_GRANTED' },
      { ...base, action: 'role-revoke', outcome: 'ok', status: 0 },
      { ...base, action: 'role-revoke', outcome: 'refused', status: 1, error_code: 'ROLE_NOT_GRANTED' },
    ]);
  });

  it('revoke without --role takes every role the store grants that grantee, each audited; none is refused', async () => {
    const dir = tempDir();
    for (const r of ['viewer', 'approver'])
      expect((await role('grant', '--data-dir', dir, '--group', 'contractors', '--role', r)).code).toBe(0);
    expect((await role('grant', '--data-dir', dir, '--user', 'contractors', '--role', 'admin')).code).toBe(0);
    const revoked = await role('revoke', '--data-dir', dir, '--group', 'contractors');
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe(
      'revoked viewer from group:contractors; it is gone from their next request\n' +
        'revoked approver from group:contractors; it is gone from their next request\n',
    );
    // A user of the same name is another grantee.
    const left = JSON.parse((await role('list', '--data-dir', dir, '--json')).stdout);
    expect(left).toEqual([
      expect.objectContaining({ grantee: { kind: 'user', id: 'contractors' }, role: 'admin' }),
    ]);
    const none = await role('revoke', '--data-dir', dir, '--group', 'contractors');
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/the store grants group:contractors no role/);
    const { entries } = verifyAuditChain(await new FileAuditLog(dir).lines());
    expect(entries.slice(3).map((e) => [e.action, e.subject, e.role, e.outcome, e.error_code])).toEqual([
      ['role-revoke', 'group:contractors', 'viewer', 'ok', undefined],
      ['role-revoke', 'group:contractors', 'approver', 'ok', undefined],
      ['role-revoke', 'group:contractors', undefined, 'refused', 'ROLE_NOT_GRANTED'],
    ]);
  });

  const BAD: { args: string[]; says: RegExp; code: number }[] = [
    { args: ['grant', '--user', 'a', '--role', 'viewer'], says: /--data-dir DIR .* or --store/, code: 2 },
    {
      args: ['grant', '--user', 'a', '--role', 'boss', '--data-dir', 'D'],
      says: /'boss' is invalid.*viewer, operator, approver, admin/,
      code: 2,
    },
    { args: ['grant', '--user', 'a', '--data-dir', 'D'], says: /--role <role>' not specified/, code: 2 },
    { args: ['grant', '--role', 'viewer', '--data-dir', 'D'], says: /--user ID .* or --group NAME/, code: 2 },
    {
      args: ['grant', '--user', 'a', '--group', 'g', '--role', 'viewer', '--data-dir', 'D'],
      says: /not both/,
      code: 2,
    },
    {
      args: ['grant', '--user', ' a', '--role', 'viewer', '--data-dir', 'D'],
      says: /--user " a": no spaces/,
      code: 2,
    },
    {
      args: ['grant', '--user', 'a', '--role', 'viewer', '--store', 'mysql://x'],
      says: /PostgreSQL URL/,
      code: 2,
    },
    {
      args: ['revoke', '--user', 'a', '--role', 'admin', '--data-dir', 'D'],
      says: /grants user:a no admin role/,
      code: 1,
    },
  ];
  it.each(BAD)('refuses `role $args` with a clear error, no stack trace', async ({ args, says, code }) => {
    const dir = tempDir();
    const result = await role(...args.map((a) => (a === 'D' ? dir : a)));
    expect(result.stderr).toMatch(says);
    expect(result.stderr).not.toMatch(STACK_LINE);
    expect(result.code).toBe(code);
  });

  it('--help explains where roles are kept, and each of its examples is a command line the CLI takes', async () => {
    const help = await runCli(['role', '--help']);
    expect(help.stdout).toMatch(/A person\s+holds what --access FILE grants and what the store grants/);
    const examples = [...help.stdout.matchAll(/^\s+\$ attractor (.+)$/gm)].map((m) => m[1]?.split(' ') ?? []);
    expect(examples).toHaveLength(5);
    for (const argv of examples) expect(await refusalOf(argv)).toBeUndefined();
  });

  it('a roles.json that is not one attractor wrote is named, not used', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'roles.json'),
      '{"version":1,"grants":[{"grantee":{"kind":"user","id":"a"},"role":"boss"}]}',
    );
    const result = await role('list', '--data-dir', dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${path.join(dir, 'roles.json')} is not a file attractor wrote`);
    expect(readFileSync(path.join(dir, 'roles.json'), 'utf8')).toContain('boss');
  });
});

describe('bin/attractor.js role', () => {
  beforeAll(() => ensureDist(), 180_000);
  const attractor = (args: string[]) =>
    spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });

  it('grants and lists through the built command; a bad role is one line and exit 2, like token', () => {
    const dir = tempDir();
    const granted = attractor([
      'role',
      'grant',
      '--data-dir',
      dir,
      '--user',
      'bob@example.com',
      '--role',
      'viewer',
    ]);
    expect(granted.status).toBe(0);
    expect(attractor(['role', 'list', '--data-dir', dir]).stdout).toMatch(
      /^user\s+bob@example\.com\s+viewer/m,
    );
    const bad = attractor([
      'role',
      'grant',
      '--data-dir',
      dir,
      '--user',
      'bob@example.com',
      '--role',
      'boss',
    ]);
    const token = attractor(['token', 'create', '--data-dir', dir, '--name', 'ci', '--role', 'boss']);
    expect(bad.status).toBe(token.status);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')[0]).toMatch(/argument 'boss' is invalid/);
  }, 60_000);
});
