import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { constants } from 'node:os';
import type { SandboxSpec } from '../sandbox/sandbox-policy.js';
import { type SandboxedCommand, sandboxCommand } from '../sandbox/sandboxed-command.js';
import { groupRunning } from './find-group-members.js';
import { killGroup, openGate } from './process-group.js';
import { PROCESS_TOKEN_ENV } from './process-ledger.js';

// The group's leader: with a ledger it waits on fd 3 until the group is recorded (EOF, when the engine
// died first, runs nothing); it joins the pids cgroup when there is one; then it becomes the command, so
// the recorded pid stays the leader. `$1` is the cgroup's procs file or `-`.
const GATED =
  'IFS= read -r _ <&3 || exit 125; exec 3<&-; [ "$1" = - ] || echo $$ > "$1" || exit 126; shift; exec "$@"';
const UNGATED = '[ "$1" = - ] || echo $$ > "$1" || exit 126; shift; exec "$@"';

export interface SpawnGroupOptions {
  /** The program and its arguments (a shell and its command line, usually). */
  argv: readonly [string, ...string[]];
  cwd: string;
  env: Record<string, string>;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  input?: string;
  /** Milliseconds; undefined runs until the command ends or the signal aborts. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Milliseconds between SIGTERM and SIGKILL. */
  killGraceMs: number;
  /**
   * Record the new group (the run's process ledger) before the command may start; a throw kills it
   * unstarted. The group carries `token` in its environment (`ATTRACTOR_PROCESS_TOKEN`).
   */
  record?: (pgid: number, token: string) => void;
  /** Called once the group is gone (or has been sent SIGKILL): the ledger forgets it. */
  release?: (pgid: number) => void;
  onStdout?: (chunk: Buffer) => void;
  onStderr?: (chunk: Buffer) => void;
  /** Run inside bubblewrap under this policy (decision 0341). */
  sandbox?: SandboxSpec;
}

export interface GroupExit {
  /** Of the leader, which is also the id of its process group. */
  pid: number | undefined;
  /** The exit code; 128 + signal number when killed by a signal; 127 when it could not start. */
  code: number;
  /** The signal that ended the leader, if any. */
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** The abort signal fired before the command ended. */
  aborted: boolean;
  durationMs: number;
  /** The reason it could not start (`spawn … ENOENT`), when it could not. */
  spawnError?: string;
  /** Said by the sandbox when the command failed and something points at its walls. */
  sandboxNote?: string;
}

/**
 * The one process-group spawner: tool nodes, the agent's shell and tool hooks, ACP terminals. The
 * command runs in a new process group (inside bubblewrap when `sandbox` is given), recorded in the ledger
 * before it starts. On timeout or abort the whole group gets SIGTERM, then SIGKILL after the grace
 * period, so `make test &` grandchildren die with it; processes still in the group when the leader exits
 * are ended the same way (they would hold the pipes open and outlive the command).
 */
export async function spawnProcessGroup(options: SpawnGroupOptions): Promise<GroupExit> {
  const started = Date.now();
  const sandboxed = options.sandbox
    ? await sandboxCommand(options.argv, { ...options.sandbox, cwd: options.cwd, env: options.env })
    : undefined;
  // The end of stderr, for the sandbox's note (callers keep their own copies of the output).
  let tail = '';
  const watched: SpawnGroupOptions = sandboxed
    ? {
        ...options,
        onStderr: (chunk) => {
          tail = (tail + chunk.toString()).slice(-NOTE_WINDOW);
          options.onStderr?.(chunk);
        },
      }
    : options;
  try {
    const exit = await runGroup(watched, sandboxed, started);
    const note =
      sandboxed && exit.code !== 0 && !exit.timedOut && !exit.aborted ? sandboxed.note(tail) : undefined;
    return note ? { ...exit, sandboxNote: note } : exit;
  } finally {
    await sandboxed?.dispose();
  }
}

const NOTE_WINDOW = 8192;

function launch(
  options: SpawnGroupOptions,
  sandboxed: SandboxedCommand | undefined,
  token: string | undefined,
) {
  const argv = sandboxed?.argv ?? options.argv;
  const env = sandboxed?.env ?? options.env;
  const wrapped = token !== undefined || sandboxed?.cgroupProcs !== undefined;
  const [file, ...args] = wrapped
    ? ['/bin/sh', '-c', token ? GATED : UNGATED, 'attractor', sandboxed?.cgroupProcs ?? '-', ...argv]
    : argv;
  return spawn(file, args, {
    cwd: options.cwd,
    env: token ? { ...env, [PROCESS_TOKEN_ENV]: token } : env,
    detached: true,
    stdio: [
      options.input === undefined ? 'ignore' : 'pipe',
      'pipe',
      'pipe',
      ...(token ? (['pipe'] as const) : []),
    ],
  });
}

function runGroup(
  options: SpawnGroupOptions,
  sandboxed: SandboxedCommand | undefined,
  started: number,
): Promise<GroupExit> {
  const token = options.record ? randomUUID() : undefined;
  const child = launch(options, sandboxed, token);
  const pid = child.pid;
  if (token && pid !== undefined) {
    try {
      options.record?.(pid, token);
    } catch (error) {
      killGroup(pid, 'SIGKILL');
      return Promise.reject(error);
    }
    openGate(child);
  }
  if (options.input !== undefined && child.stdin) {
    // A command that does not read its stdin closes the pipe early: EPIPE is its choice, not our failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  }
  child.stdout?.on('data', (chunk: Buffer) => options.onStdout?.(chunk));
  child.stderr?.on('data', (chunk: Buffer) => options.onStderr?.(chunk));

  let timedOut = false;
  let aborted = false;
  let stragglers = false;
  let killTimer: NodeJS.Timeout | undefined;
  const release = () => {
    if (pid !== undefined) options.release?.(pid);
  };
  const terminate = () => {
    if (pid === undefined || killTimer) return;
    killGroup(pid, 'SIGTERM');
    killTimer = setTimeout(() => {
      killGroup(pid, 'SIGKILL');
      // Stragglers outlived the leader: the group leaves the ledger only once it has been killed.
      if (stragglers) release();
    }, options.killGraceMs);
  };
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          terminate();
        }, options.timeoutMs);
  const onAbort = () => {
    aborted = true;
    terminate();
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  return new Promise<GroupExit>((resolve) => {
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let spawnError: string | undefined;
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      if (pid !== undefined && groupRunning(pid)) {
        stragglers = true;
        terminate();
      }
    });
    let done = false;
    const finish = (ended: { code: number | null; signal: NodeJS.Signals | null }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      // A sandbox's reaper may still have been on its way out when bubblewrap exited: gone by now, it
      // was no straggler.
      if (stragglers && pid !== undefined && !groupRunning(pid)) stragglers = false;
      // We do not wait for stragglers to die. The pending SIGKILL stays armed, and the group leaves the
      // ledger as soon as it is seen gone, without either holding the event loop open.
      if (stragglers && pid !== undefined) {
        killTimer?.unref();
        const watch = setInterval(() => {
          if (groupRunning(pid)) return;
          clearInterval(watch);
          clearTimeout(killTimer);
          release();
        }, 25);
        watch.unref();
      } else {
        clearTimeout(killTimer);
        release();
      }
      const code = spawnError
        ? 127
        : (ended.code ?? 128 + (ended.signal ? (constants.signals[ended.signal] ?? 0) : 0));
      resolve({
        pid,
        code,
        signal: ended.signal,
        timedOut,
        aborted: aborted && !timedOut,
        durationMs: Date.now() - started,
        ...(spawnError ? { spawnError } : {}),
      });
    };
    child.once('error', (error) => {
      spawnError = error.message;
      finish({ code: 127, signal: null });
    });
    child.once('close', (code, signal) => finish(exit ?? { code, signal }));
  });
}
