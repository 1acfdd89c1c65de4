import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import { killGroup, openGate } from '../../shared/process/process-group.js';
import { PROCESS_TOKEN_ENV } from '../../shared/process/process-ledger.js';
import type { ExecOptions, ExecResult } from './execution-environment.js';
import { HeadTailText } from './head-tail-text.js';

export interface SpawnCommandOptions extends Omit<ExecOptions, 'workingDir' | 'envVars'> {
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Milliseconds between SIGTERM and SIGKILL (2 s). */
  killGraceMs: number;
  /** Characters of each stream kept in memory, half at the head and half at the tail. */
  outputCapChars: number;
  /** Called with the pid once the shell runs and again (undefined) when it is gone, for `cleanup()`. */
  track?: (pid: number, running: boolean) => void;
  /**
   * Record the new process group (the run's process ledger) before the command may start: the shell
   * waits on fd 3 until this returned; a throw kills it unstarted. The group carries `token` in its
   * environment (`ATTRACTOR_PROCESS_TOKEN`), which is how a resume knows its processes.
   */
  record?: (pgid: number, token: string) => void;
}

// Waits for the go-ahead on fd 3 (EOF without it, when the engine died first, runs nothing), then runs
// the command in this same shell, so the recorded pid stays the group leader.
const GATE = 'IFS= read -r _ <&3 || exit 125; exec 3<&-; eval "$1"';

/**
 * bash with `--norc`: given a socket as stdin (how Node passes `input`), Debian's bash thinks it was started
 * by a remote shell daemon and reads ~/.bashrc, which would make a command's behaviour depend on the host.
 */
const SHELL: readonly [string, ...string[]] = existsSync('/bin/bash')
  ? ['/bin/bash', '--norc', '--noprofile']
  : ['/bin/sh'];

/**
 * Runs `command` with bash in a new process group. On timeout or abort the whole group gets SIGTERM and,
 * 2 s later, SIGKILL, so grandchildren (`make test &`) die too; processes left in the group when the shell
 * exits are ended the same way, since they would hold our pipes open and outlive the tool call. Output is
 * decoded as it arrives, handed to `onOutput`, and kept only as a bounded head and tail.
 */
export function spawnCommand(command: string, options: SpawnCommandOptions): Promise<ExecResult> {
  const started = Date.now();
  const half = Math.floor(options.outputCapChars / 2);
  const stdout = new HeadTailText(half, options.outputCapChars - half);
  const stderr = new HeadTailText(half, options.outputCapChars - half);
  const [shell, ...shellArgs] = SHELL;
  const token = options.record ? randomUUID() : undefined;
  const child = spawn(
    shell,
    token ? [...shellArgs, '-c', GATE, 'attractor', command] : [...shellArgs, '-c', command],
    {
      cwd: options.cwd,
      env: token ? { ...options.env, [PROCESS_TOKEN_ENV]: token } : options.env,
      detached: true,
      stdio: [
        options.input === undefined ? 'ignore' : 'pipe',
        'pipe',
        'pipe',
        ...(token ? (['pipe'] as const) : []),
      ],
    },
  );
  if (token && child.pid !== undefined) {
    try {
      options.record?.(child.pid, token);
    } catch (error) {
      killGroup(child.pid, 'SIGKILL');
      return Promise.reject(error);
    }
    openGate(child);
  }
  if (options.input !== undefined && child.stdin) {
    // A command that does not read its stdin closes the pipe early: EPIPE is its choice, not our failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  }
  const pid = child.pid;
  if (pid !== undefined) options.track?.(pid, true);

  const wire = (stream: NodeJS.ReadableStream, text: HeadTailText, name: 'stdout' | 'stderr') => {
    const decoder = new StringDecoder('utf8');
    stream.on('data', (chunk: Buffer) => {
      const decoded = decoder.write(chunk);
      if (decoded.length === 0) return;
      text.push(decoded);
      options.onOutput?.(decoded, name);
    });
    stream.on('end', () => {
      const last = decoder.end();
      if (last.length > 0) {
        text.push(last);
        options.onOutput?.(last, name);
      }
    });
  };
  wire(child.stdout!, stdout, 'stdout');
  wire(child.stderr!, stderr, 'stderr');

  let timedOut = false;
  let aborted = false;
  let killTimer: NodeJS.Timeout | undefined;
  const terminate = () => {
    if (pid === undefined || killTimer) return;
    killGroup(pid, 'SIGTERM');
    killTimer = setTimeout(() => killGroup(pid, 'SIGKILL'), options.killGraceMs);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    terminate();
  }, options.timeoutMs);
  const onAbort = () => {
    aborted = true;
    terminate();
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  return new Promise<ExecResult>((resolve) => {
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      // Stragglers in the group would keep the pipes open (so 'close' never comes) and outlive the call.
      if (pid !== undefined && killGroup(pid, 0)) terminate();
    });
    let done = false;
    const finish = (code: number) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      if (pid !== undefined) {
        // The group leader is gone; make sure nothing of the group survives it.
        killGroup(pid, 'SIGKILL');
        options.track?.(pid, false);
      }
      resolve({
        stdout: stdout.toString(),
        stderr: stderr.toString(),
        exitCode: code,
        timedOut,
        aborted,
        durationMs: Date.now() - started,
        omittedChars: stdout.omitted + stderr.omitted,
      });
    };
    child.once('error', (error) => {
      stderr.push(`${error.message}\n`);
      finish(127);
    });
    child.once('close', (code, signal) => {
      const ended = exit ?? { code, signal };
      finish(ended.code ?? 128 + (ended.signal ? (constants.signals[ended.signal] ?? 0) : 0));
    });
  });
}
