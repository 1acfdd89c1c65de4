import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bwrapArguments } from './bwrap-arguments.js';
import { BRIDGE_PORT, BRIDGE_SOURCE, proxyEnvironment } from './egress-bridge.js';
import { type EgressProxy, startEgressProxy } from './egress-proxy.js';
import { createPidsCgroup, type PidsCgroup } from './pids-cgroup.js';
import { sandboxNote } from './sandbox-note.js';
import type { SandboxPolicy } from './sandbox-policy.js';
import { SYSTEM_DIRS, toolchainPaths } from './toolchain-paths.js';

/** Where the egress proxy's socket appears inside the sandbox. */
const INSIDE_SOCKET = '/run/attractor-egress.sock';

/** A command rewritten to run inside bubblewrap, with what must be undone once it ends. */
export interface SandboxedCommand {
  argv: [string, ...string[]];
  env: Record<string, string>;
  /** The pids cgroup's `cgroup.procs`, for the wrapper shell to join before it becomes bwrap. */
  cgroupProcs?: string;
  /** What to append to stderr when the command failed; undefined when nothing points at the sandbox. */
  note(stderr: string): string | undefined;
  dispose(): Promise<void>;
}

export interface SandboxRequest {
  bwrap: string;
  policy: SandboxPolicy;
  cwd: string;
  env: Record<string, string>;
}

const privateHome = (env: Record<string, string>): string => {
  const home = env['HOME'];
  return home && path.isAbsolute(home) && path.resolve(home) !== '/' ? path.resolve(home) : '/tmp/home';
};

/** Without a pids cgroup, RLIMIT_NPROC inside the sandbox's user namespace (root is exempt: decision 0341). */
function withProcessLimit(argv: readonly string[], max: number): [string, ...string[]] {
  return [
    '/bin/sh',
    '-c',
    `ulimit -u ${max} 2>/dev/null || ulimit -p ${max} 2>/dev/null; exec "$@"`,
    'attractor',
    ...argv,
  ];
}

/**
 * `argv` wrapped in bubblewrap under `policy` (decision 0341): a private HOME and /tmp, HOME and TMPDIR
 * pointing at them, and — when the policy names hosts — a proxy on the host reached through a bridge
 * inside. Call `dispose` once the command's process group is gone.
 */
export async function sandboxCommand(
  argv: readonly string[],
  request: SandboxRequest,
): Promise<SandboxedCommand> {
  const { policy } = request;
  const home = privateHome(request.env);
  const cgroup: PidsCgroup | undefined = createPidsCgroup(policy.maxProcesses);
  let inner: readonly string[] = cgroup ? argv : withProcessLimit(argv, policy.maxProcesses);
  let proxy: EgressProxy | undefined;
  let socketDir: string | undefined;
  let env: Record<string, string> = { ...request.env, HOME: home, TMPDIR: '/tmp', TMP: '/tmp', TEMP: '/tmp' };
  if (policy.egress.length > 0) {
    socketDir = mkdtempSync(path.join(os.tmpdir(), 'attractor-egress-'));
    proxy = await startEgressProxy(path.join(socketDir, 'proxy.sock'), policy.egress);
    inner = [process.execPath, '-e', BRIDGE_SOURCE, INSIDE_SOCKET, String(BRIDGE_PORT), ...inner];
    env = { ...env, ...proxyEnvironment(BRIDGE_PORT) };
  }
  const toolchains = toolchainPaths(request.env, [path.dirname(path.dirname(process.execPath))]);
  // The private /tmp and HOME are not the host's: what the host has there is out of sight.
  const visible = [...SYSTEM_DIRS, '/proc', '/dev', ...toolchains.dirs, ...policy.writable];
  const args = bwrapArguments({
    policy,
    cwd: realDir(request.cwd),
    home,
    toolchains,
    ...(socketDir
      ? { proxySocket: { host: path.join(socketDir, 'proxy.sock'), inside: INSIDE_SOCKET } }
      : {}),
  });
  return {
    argv: [request.bwrap, ...args, '--', ...inner],
    env,
    ...(cgroup ? { cgroupProcs: cgroup.procsFile } : {}),
    note: (stderr) =>
      sandboxNote({
        stderr,
        denials: proxy?.denials ?? [],
        egress: policy.egress,
        maxProcesses: policy.maxProcesses,
        visible,
        hidden: policy.hidden,
        cwd: request.cwd,
      }),
    dispose: async () => {
      await proxy?.close();
      if (socketDir) rmSync(socketDir, { recursive: true, force: true });
      cgroup?.remove();
    },
  };
}

function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}
