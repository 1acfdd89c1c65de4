import { existsSync, lstatSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import path from 'node:path';
import type { SandboxPolicy } from './sandbox-policy.js';
import { SYSTEM_DIRS, TOOLCHAIN_SECRETS, type Toolchains } from './toolchain-paths.js';

/** Host files no sandboxed command may read, though they lie in the read-only system folders. */
const SYSTEM_SECRETS = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/ssh',
  '/etc/ssl/private',
  '/etc/sudoers',
  '/etc/sudoers.d',
] as const;

/** The namespaces and privileges every sandbox drops. */
export const BWRAP_ISOLATION = [
  '--unshare-user',
  '--disable-userns',
  '--unshare-pid',
  '--unshare-ipc',
  '--unshare-uts',
  '--unshare-cgroup-try',
  // Always: egress, when named, leaves through the proxy's socket, never through a shared network.
  '--unshare-net',
  '--cap-drop',
  'ALL',
  '--die-with-parent',
  '--proc',
  '/proc',
  '--dev',
  '/dev',
] as const;

export interface BwrapLayout {
  policy: SandboxPolicy;
  /** Where the command starts (inside a writable folder). */
  cwd: string;
  /** HOME inside: a private, empty, writable folder at the host's HOME path (so toolchains find it). */
  home: string;
  /** Read-only toolchain folders and the links to them (`toolchainPaths`). */
  toolchains: Toolchains;
  /** The egress proxy's unix socket on the host, and where it appears inside. */
  proxySocket?: { host: string; inside: string };
}

const depth = (dir: string): number => dir.split('/').length;

/** How `target` is made to vanish: an empty tmpfs over a folder (made read-only later), /dev/null over a file. */
function hide(target: string): string[] {
  const info = statSync(target, { throwIfNoEntry: false });
  if (!info) return [];
  return info.isDirectory() ? ['--tmpfs', target] : ['--ro-bind', '/dev/null', target];
}

function systemMounts(): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    const info = lstatSync(dir, { throwIfNoEntry: false });
    if (!info) continue;
    if (info.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else args.push('--ro-bind', dir, dir);
  }
  return args;
}

/**
 * The git folders of a worktree whose `.git` is a file (`gitdir: …`): its own folder and the repository's
 * common one, which git writes to (index, refs, objects).
 */
export function worktreeGitDirs(tree: string): string[] {
  try {
    const pointer = /^gitdir: (.+)$/m.exec(readFileSync(path.join(tree, '.git'), 'utf8'))?.[1]?.trim();
    if (!pointer) return [];
    const gitdir = path.resolve(tree, pointer);
    const common = readFileSync(path.join(gitdir, 'commondir'), 'utf8').trim();
    return [gitdir, path.resolve(gitdir, common)];
  } catch {
    return [];
  }
}

/** git's own configuration and hooks stay read-only: a command must not plant a hook that runs outside. */
function gitConfigMounts(gitDirs: readonly string[]): string[] {
  const args: string[] = [];
  for (const dir of gitDirs) {
    for (const name of ['config', 'hooks', 'config.worktree']) {
      const target = path.join(dir, name);
      if (existsSync(target)) args.push('--ro-bind', target, target);
    }
  }
  return args;
}

/**
 * bubblewrap's arguments for one command (before `--` and the command): the system read-only, a
 * private /tmp and HOME, the toolchains read-only, the writable folders, then what is hidden inside
 * them. Pure but for looking at which host paths exist. Later mounts cover earlier ones, so folders
 * are mounted parents first.
 */
export function bwrapArguments(layout: BwrapLayout): string[] {
  const { policy } = layout;
  const worktrees = policy.writable.flatMap(worktreeGitDirs);
  const gitDirs = [...policy.writable.map((dir) => path.join(dir, '.git')), ...worktrees];
  const binds = [
    ...layout.toolchains.dirs.map((dir) => ({ dir, flag: '--ro-bind' })),
    ...[
      ...policy.writable,
      ...worktrees.filter((dir) => !policy.writable.some((w) => dir.startsWith(`${w}/`))),
    ].map((dir) => ({ dir, flag: '--bind' })),
  ].sort((a, b) => depth(a.dir) - depth(b.dir));
  const secrets = [
    ...SYSTEM_SECRETS,
    ...layout.toolchains.dirs.flatMap((dir) => TOOLCHAIN_SECRETS.map((name) => path.join(dir, name))),
  ];
  return [
    ...BWRAP_ISOLATION,
    ...systemMounts(),
    '--tmpfs',
    '/tmp',
    ...(layout.home === '/tmp' ? [] : ['--tmpfs', layout.home]),
    ...binds.flatMap(({ dir, flag }) => [flag, dir, dir]),
    // A link in a folder the command sees already exists there; elsewhere (under HOME) it is made.
    ...layout.toolchains.links
      .filter(
        ({ from }) =>
          ![...policy.writable, ...layout.toolchains.dirs].some((dir) => from.startsWith(`${dir}/`)),
      )
      .flatMap(({ from, to }) => ['--symlink', to, from]),
    ...[...secrets, ...policy.hidden].flatMap(hide),
    // A writable folder inside a hidden one (the run's own folder among the runs) comes back on top.
    ...policy.writable
      .filter((dir) => policy.hidden.some((hidden) => dir.startsWith(`${hidden}/`)))
      .flatMap((dir) => ['--bind', dir, dir]),
    // Only now read-only: the folders above needed their mount points made in it.
    ...[...secrets, ...policy.hidden]
      .filter((target) => statSync(target, { throwIfNoEntry: false })?.isDirectory())
      .flatMap((dir) => ['--remount-ro', dir]),
    ...gitConfigMounts(gitDirs),
    ...(layout.proxySocket ? ['--bind', layout.proxySocket.host, layout.proxySocket.inside] : []),
    '--chdir',
    layout.cwd,
  ];
}
