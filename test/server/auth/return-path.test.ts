import { describe, expect, it } from 'vitest';
import { safeReturnPath } from '../../../src/server/auth/return-path.js';

// Where a browser lands after signing in: only a path on this server, whatever an attacker puts in a
// link to /signin?return_to=…; each refused one would otherwise send a freshly signed-in person away.
describe('safeReturnPath', () => {
  it.each([
    ['/', '/'],
    ['/#/runs/run-1?node=review', '/#/runs/run-1?node=review'],
    ['/#/runs/a%2Fb?node=review%20gate', '/#/runs/a%2Fb?node=review%20gate'],
    ['/#/new', '/#/new'],
    ['/?x=1#/', '/?x=1#/'],
  ])('keeps a path on this server: %s', (asked, kept) => {
    expect(safeReturnPath(asked)).toBe(kept);
  });

  it.each([
    ['another host, scheme-relative', '//evil.example/'],
    ['another host, three slashes', '///evil.example/'],
    ['an absolute URL', 'https://evil.example/'],
    ['an absolute URL to this very server', 'http://127.0.0.1/'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['a backslash browsers read as a slash', '/\\evil.example'],
    ['a backslash later on', '/a\\..\\..\\evil'],
    ['a tab browsers strip', '/\t/evil.example'],
    ['a newline browsers strip', '/\n/evil.example'],
    ['a carriage return (header splitting)', '/\r\nSet-Cookie: x=1'],
    ['a NUL', '/\u0000evil'],
    ['DEL', '/\u007fevil'],
    ['a space', '/ /evil.example'],
    ['a non-ASCII look-alike slash', '/\u2215evil.example'],
    ['a relative path', 'runs/abc'],
    ['a fragment alone', '#/runs/abc'],
    ['empty', ''],
    ['too long', `/${'a'.repeat(2048)}`],
    ['not a string', ['/']],
    ['missing', undefined],
  ])('refuses %s', (_why, asked) => {
    expect(safeReturnPath(asked)).toBeUndefined();
  });
});
