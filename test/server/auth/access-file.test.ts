/** `--access FILE`: roles by user and group; a wrong file stops the server naming file:line. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAccessFile, rolesFor } from '../../../src/server/auth/access-file.js';
import { startServer } from '../../../src/server/start-server.js';
import { tempDir } from '../../helpers/temp-dir.js';

function accessFile(name: string, text: string): string {
  const file = path.join(tempDir(), name);
  writeFileSync(file, text);
  return file;
}

describe('access file', () => {
  const YAML = `# who may do what
users:
  alice@example.com: [operator]
  bob-subject-42:
    - approver
groups:
  release-managers: [approver, viewer]
`;

  it.each([
    ['YAML', 'access.yaml', YAML],
    [
      'JSON',
      'access.json',
      JSON.stringify({
        users: { 'alice@example.com': ['operator'], 'bob-subject-42': ['approver'] },
        groups: { 'release-managers': ['approver', 'viewer'] },
      }),
    ],
  ])('grants roles by email, subject and group (%s)', (_kind, name, text) => {
    const access = readAccessFile(accessFile(name, text));
    expect(rolesFor(access, { subject: 'x', email: 'alice@example.com', groups: [] })).toEqual(['operator']);
    expect(rolesFor(access, { subject: 'bob-subject-42', groups: ['release-managers'] })).toEqual([
      'approver',
      'viewer',
    ]);
    expect(rolesFor(access, { subject: 'stranger', email: 'eve@example.com', groups: ['other'] })).toEqual(
      [],
    );
  });

  const BAD: { what: string; text: string; says: string }[] = [
    {
      what: 'an unknown role',
      text: 'users:\n  alice: [operator]\n  bob: [operator, boss]\n',
      says: ':3: unknown role "boss": roles are viewer, operator, approver, admin (at users.bob.1)',
    },
    { what: 'an unknown section', text: 'users:\n  alice: [viewer]\nteams:\n  a: [viewer]\n', says: ':3: ' },
    { what: 'a role that is not a list', text: 'groups:\n  ops: admin\n', says: ':2: ' },
    { what: 'an empty role list', text: 'groups:\n  ops: []\n', says: ':2: ' },
    {
      what: 'broken YAML',
      text: 'users:\n  alice: [viewer]\n  bob: [approver]]\n',
      says: ':3: not YAML or JSON',
    },
    {
      what: 'broken JSON',
      text: '{"users": {"alice": ["viewer"]},\n "groups" {}}\n',
      says: ':2: not YAML or JSON',
    },
  ];
  it.each(BAD)('the server refuses to start with $what, naming file:line', async ({ text, says }) => {
    const file = accessFile('access.yaml', text);
    const dataDir = tempDir();
    const started = startServer({ port: 0, dataDir, access: file });
    await expect(started).rejects.toThrow(`${file}${says}`);
    await expect(started).rejects.toMatchObject({ code: 'BAD_ACCESS_FILE' });
  });
});
