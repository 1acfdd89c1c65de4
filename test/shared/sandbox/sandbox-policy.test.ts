import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bwrapArguments, worktreeGitDirs } from '../../../src/shared/sandbox/bwrap-arguments.js';
import { sandboxNote } from '../../../src/shared/sandbox/sandbox-note.js';
import {
  nodeSandbox,
  type SandboxSettings,
  sandboxSettingsForRun,
} from '../../../src/shared/sandbox/sandbox-settings.js';
import { toolchainPaths } from '../../../src/shared/sandbox/toolchain-paths.js';
import { tempDir } from '../../helpers/temp-dir.js';

const on: SandboxSettings = { mode: 'on', bwrap: '/usr/bin/bwrap', allowOff: true, hidden: [], writable: [] };

describe('toolchainPaths', () => {
  it('mounts a bin folder’s parent, never the home folder or what holds it, and skips system folders', () => {
    const home = tempDir();
    for (const dir of ['.cargo/bin', '.pyenv/shims', 'bin', '.nvm/versions/node/v20/bin'])
      mkdirSync(join(home, dir), { recursive: true });
    const env = {
      HOME: home,
      PATH: [
        join(home, '.cargo/bin'),
        join(home, '.pyenv/shims'),
        join(home, 'bin'),
        '/usr/local/bin',
        '/usr/bin',
      ].join(':'),
      NVM_DIR: join(home, '.nvm'),
    };
    const real = realpathSync(home);
    expect(toolchainPaths(env).dirs).toEqual(
      ['.cargo', '.nvm', '.pyenv/shims', 'bin'].map((dir) => join(real, dir)),
    );
  });

  it('a PATH of / or of the home folder itself brings nothing', () => {
    const home = tempDir();
    expect(toolchainPaths({ HOME: home, PATH: `/:${home}:/bin` }).dirs).toEqual([]);
  });

  it('mounts a linked toolchain at its real path and remembers the link (nvm current, a node_modules link)', () => {
    const root = tempDir();
    mkdirSync(join(root, 'versions/v20/bin'), { recursive: true });
    symlinkSync(join(root, 'versions/v20'), join(root, 'current'));
    const real = realpathSync(root);
    expect(toolchainPaths({ HOME: '/nonexistent-home', PATH: join(root, 'current/bin') })).toEqual({
      dirs: [join(real, 'versions/v20')],
      links: [{ from: join(root, 'current'), to: join(real, 'versions/v20') }],
    });
  });
});

describe('bwrapArguments', () => {
  it('isolates every namespace, drops every capability and mounts parents before children', () => {
    const work = tempDir();
    const hidden = join(work, '.attractor-server');
    mkdirSync(hidden);
    const args = bwrapArguments({
      policy: { writable: [work], hidden: [hidden], egress: [], maxProcesses: 10 },
      cwd: work,
      home: '/root',
      toolchains: { dirs: [], links: [] },
    });
    for (const flag of [
      '--unshare-net',
      '--unshare-pid',
      '--unshare-user',
      '--disable-userns',
      '--die-with-parent',
    ]) {
      expect(args).toContain(flag);
    }
    expect(args.join(' ')).toContain('--cap-drop ALL');
    const at = (...needle: string[]) => args.join('\0').indexOf(needle.join('\0'));
    expect(at('--tmpfs', '/tmp')).toBeLessThan(at('--bind', work, work));
    expect(at('--bind', work, work)).toBeLessThan(at('--tmpfs', hidden));
    expect(at('--tmpfs', hidden)).toBeLessThan(at('--remount-ro', hidden));
    expect(args.slice(-2)).toEqual(['--chdir', work]);
  });
});

describe('nodeSandbox', () => {
  it.each([
    { settings: on, node: {}, graph: {}, sandboxed: true },
    { settings: on, node: { sandbox: 'off' }, graph: {}, sandboxed: false },
    { settings: on, node: {}, graph: { sandbox: 'off' }, sandboxed: false },
    { settings: on, node: { sandbox: 'on' }, graph: { sandbox: 'off' }, sandboxed: true },
    { settings: { ...on, allowOff: false }, node: { sandbox: 'off' }, graph: {}, sandboxed: true },
    { settings: { mode: 'off' } as const, node: {}, graph: {}, sandboxed: false },
  ])(
    '$node / $graph (allowOff $settings.allowOff) → sandboxed $sandboxed',
    ({ settings, node, graph, sandboxed }) => {
      expect(nodeSandbox(settings, node, graph, ['/work']) !== undefined).toBe(sandboxed);
    },
  );

  it("takes the node's egress over the graph's", () => {
    const spec = nodeSandbox(
      on,
      { sandbox_egress: 'github.com, registry.npmjs.org' },
      { sandbox_egress: 'x.org' },
      ['/w'],
    );
    expect(spec?.policy.egress).toEqual(['github.com', 'registry.npmjs.org']);
  });

  it("hides a worker's data dir all around the run's own working copy and folder", () => {
    const data = realpathSync(tempDir());
    for (const dir of ['runs/mine/work', 'runs/mine/run', 'runs/other/work', 'queue'])
      mkdirSync(join(data, dir), { recursive: true });
    const settings = sandboxSettingsForRun(
      { ...on, hidden: [data, join(data, 'runs')] },
      join(data, 'runs/mine/run'),
    );
    const spec = nodeSandbox(settings, {}, {}, [join(data, 'runs/mine/work')]);
    expect([...(spec?.policy.hidden ?? [])].sort()).toEqual([join(data, 'queue'), join(data, 'runs/other')]);
  });

  it("a parallel branch's worktree in its run's own folder: other runs are hidden, its sibling branches are not listed", () => {
    const root = realpathSync(tempDir());
    for (const dir of ['g/mine/worktrees/fan/b1', 'g/mine/worktrees/fan/b2', 'g/other'])
      mkdirSync(join(root, dir), { recursive: true });
    const settings = sandboxSettingsForRun({ ...on, hidden: [root] }, join(root, 'g/mine'));
    const spec = nodeSandbox(settings, {}, {}, [join(root, 'g/mine/worktrees/fan/b1')]);
    // b2 comes and goes while b1's sandbox is mounted: listing it raced with its removal.
    expect(spec?.policy.hidden).toEqual([join(root, 'g/other')]);
  });

  it('a server started in its own data dir still hides the runs, not the folder it works in', () => {
    const data = realpathSync(tempDir());
    mkdirSync(join(data, 'runs/r1/run'), { recursive: true });
    const spec = nodeSandbox({ ...on, hidden: [data, join(data, 'runs')] }, {}, {}, [data]);
    expect(spec?.policy.hidden).toEqual([join(data, 'runs')]);
  });

  it("hides the default runs folder but keeps the run's own folder writable", () => {
    const settings = sandboxSettingsForRun(on, '/w/.attractor-runs/g/run-1');
    expect(settings).toMatchObject({
      hidden: ['/w/.attractor-runs'],
      writable: ['/w/.attractor-runs/g/run-1'],
    });
    expect(sandboxSettingsForRun(on, '/w/my-run-dir')).toMatchObject({ hidden: [] });
  });
});

describe('sandboxNote', () => {
  const base = {
    denials: [],
    egress: [],
    maxProcesses: 64,
    visible: ['/usr', '/work'],
    hidden: ['/work/.attractor-runs'],
    cwd: '/work',
  };
  it.each([
    ["touch: cannot touch '/usr/x': Read-only file system", '/usr/x is read-only in the sandbox'],
    ['curl: (6) Could not resolve host: example.com', 'network is off; name hosts with sandbox_egress='],
    ['bash: kill: (123) - No such process', 'cannot be seen or signalled'],
    ['sh: 1: Cannot fork', 'limit of 64 processes'],
    ['cat: /etc/hostname-x/y: No such file or directory', 'only the working tree, /tmp, an empty HOME'],
    [
      'cat: .attractor-runs/g/r/a.json: No such file or directory',
      'only the working tree, /tmp, an empty HOME',
    ],
    ['su: cannot set groups: Operation not permitted', 'commands run without privileges'],
  ])('%s → %s', (stderr, says) => {
    expect(sandboxNote({ ...base, stderr })).toContain(says);
  });

  it.each(['FAIL test/x.test.ts: expected 1 to be 2', 'cat: input.txt: No such file or directory'])(
    'says nothing for a failure that does not point at the sandbox: %s',
    (stderr) => {
      expect(sandboxNote({ ...base, stderr })).toBeUndefined();
    },
  );
});

describe('worktreeGitDirs', () => {
  it("finds a branch worktree's own git folder and the repository's common one", () => {
    const root = tempDir();
    const gitdir = join(root, 'repo/.git/worktrees/feature');
    mkdirSync(gitdir, { recursive: true });
    mkdirSync(join(root, 'feature'));
    writeFileSync(join(root, 'feature/.git'), `gitdir: ${gitdir}\n`);
    writeFileSync(join(gitdir, 'commondir'), '../..\n');
    expect(worktreeGitDirs(join(root, 'feature'))).toEqual([gitdir, join(root, 'repo/.git')]);
    expect(worktreeGitDirs(join(root, 'repo'))).toEqual([]);
  });
});
