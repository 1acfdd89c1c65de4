import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInside } from '../../src/shared/is-inside.js';
import { type ConfinedReadProblem, readConfinedFile } from '../../src/shared/read-confined-file.js';

describe('isInside', () => {
  it.each([
    ['/srv/app/x.md', '/srv/app', true],
    ['/srv/app', '/srv/app', true],
    ['/srv/app/../app/x', '/srv/app', true],
    ['/srv/app-old/x.md', '/srv/app', false],
    ['/srv/x.md', '/srv/app', false],
    ['/srv/app/..', '/srv/app', false],
    ['/srv/app/..secret', '/srv/app', true],
  ])('%s inside %s: %s', (target, root, inside) => {
    expect(isInside(target, root)).toBe(inside);
  });
});

describe('readConfinedFile', () => {
  let top: string;
  let root: string;
  let outside: string;
  beforeAll(() => {
    top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-confined-')));
    root = path.join(top, 'root');
    outside = path.join(top, 'outside');
    fs.mkdirSync(path.join(root, 'prompts'), { recursive: true });
    fs.mkdirSync(path.join(outside, 'deep'), { recursive: true });
    fs.writeFileSync(path.join(root, 'prompts', 'plan.md'), 'plan');
    fs.writeFileSync(path.join(outside, 'secret'), 'secret');
    fs.writeFileSync(path.join(root, 'big.md'), Buffer.alloc(2048, 97));
    fs.symlinkSync(path.join(root, 'prompts', 'plan.md'), path.join(root, 'link-in.md'));
    fs.symlinkSync(path.join(outside, 'secret'), path.join(root, 'link-out.md'));
    fs.symlinkSync(outside, path.join(root, 'dir-out'));
    execFileSync('mkfifo', [path.join(root, 'fifo')]);
  });
  afterAll(() => fs.rmSync(top, { recursive: true, force: true }));

  it.each<[string, string, ConfinedReadProblem | 'ok']>([
    ['a regular file inside', 'prompts/plan.md', 'ok'],
    ['a link to a file inside', 'link-in.md', 'ok'],
    ['a link to a file outside', 'link-out.md', 'outside'],
    ['a file through a linked folder outside', 'dir-out/secret', 'outside'],
    ['a missing file through a linked folder outside (not described)', 'dir-out/deep/none', 'outside'],
    ['a missing file inside', 'prompts/none.md', 'missing'],
    ['a folder', 'prompts', 'not_regular'],
    ['a FIFO (never opened, so never blocks)', 'fifo', 'not_regular'],
    ['a file over the size cap', 'big.md', 'too_large'],
    ['a climb out by ..', '../outside/secret', 'outside'],
  ])('%s: %s', (_what, name, expected) => {
    const read = readConfinedFile(path.join(root, name), { roots: [root], maxBytes: 1024 });
    expect(read.ok ? 'ok' : read.problem).toBe(expected);
    if (read.ok) expect(read.text).toBe('plan');
    else expect(read.reason).not.toContain('secret');
  });

  it('refuses a device inside an allowed folder without reading it', () => {
    const read = readConfinedFile('/dev/zero', { roots: ['/dev'], maxBytes: 1024 });
    expect(read).toMatchObject({ ok: false, problem: 'not_regular' });
  });

  it('reports the real path of what it read', () => {
    const read = readConfinedFile(path.join(root, 'link-in.md'), { roots: [root], maxBytes: 1024 });
    expect(read).toEqual({ ok: true, path: path.join(root, 'prompts', 'plan.md'), text: 'plan' });
  });
});
