import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, openSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { killGroup, openGate } from '../../shared/process/process-group.js';
import { PROCESS_TOKEN_ENV, type ProcessLedger } from '../../shared/process/process-ledger.js';
import { TailBuffer } from './tail-buffer.js';

// With a ledger, the shell waits on fd 3 until the group is recorded, then becomes the command. If the
// engine dies first the pipe closes without a line, `read` fails and nothing runs.
const GATED_SHELL = 'IFS= read -r _ <&3 || exit 125; exec 3<&-; exec /bin/sh -c "$0"';

export interface RunToolOptions {
  /** Run by `/bin/sh -c`. */
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** Milliseconds; undefined runs until the command ends or the signal aborts. */
  timeoutMs?: number;
  signal: AbortSignal;
  /** Files the whole stdout / stderr stream to (created with their directory). */
  stdoutPath: string;
  stderrPath: string;
  /** Bytes of each stream kept in memory for the result (default 4096). */
  tailBytes?: number;
  /** Milliseconds between SIGTERM and SIGKILL (default 2000). */
  killGraceMs?: number;
  /**
   * The run's process ledger: the group is recorded (durably) before the command may start, and
   * removed when the group is gone, so a resume after a crash can stop what the dead engine left.
   */
  ledger?: Pick<ProcessLedger, 'add' | 'remove'>;
  /** Node id recorded in the ledger. */
  node?: string;
}

export interface ToolRunResult {
  /** Of the shell, which is also the id of its process group. */
  pid: number | undefined;
  /** Null when the shell was killed by a signal. */
  exitCode: number | null;
  /** The signal that ended the shell, if any. */
  exitSignal: string | null;
  timedOut: boolean;
  /** The abort signal fired before the command ended. */
  cancelled: boolean;
  stdoutTail: string;
  stderrTail: string;
  durationMs: number;
}

function groupAlive(pid: number): boolean {
  return killGroup(pid, 0);
}

/**
 * Run a shell command in its own process group, streaming its output to files and keeping a bounded
 * tail in memory. On timeout or abort the whole group gets SIGTERM, then SIGKILL after a grace period,
 * so `make test &` style grandchildren die with it. Background processes still alive when the shell
 * exits are terminated the same way: a tool node leaves nothing running (use `setsid` to opt out).
 *
 * @example
 * const result = await runTool({ command: 'npm test', cwd, env, signal, stdoutPath, stderrPath });
 * if (result.exitCode !== 0) console.error(result.stderrTail);
 */
export async function runTool(options: RunToolOptions): Promise<ToolRunResult> {
  const started = Date.now();
  const tailBytes = options.tailBytes ?? 4096;
  const grace = options.killGraceMs ?? 2000;
  mkdirSync(dirname(options.stdoutPath), { recursive: true });
  mkdirSync(dirname(options.stderrPath), { recursive: true });
  // Opened synchronously so a bad path fails here, not later as an unhandled stream error.
  const stdoutFile = createWriteStream(options.stdoutPath, { fd: openSync(options.stdoutPath, 'w') });
  const stderrFile = createWriteStream(options.stderrPath, { fd: openSync(options.stderrPath, 'w') });
  const stdoutTail = new TailBuffer(tailBytes);
  const stderrTail = new TailBuffer(tailBytes);

  const ledger = options.ledger;
  const token = ledger ? randomUUID() : undefined;
  const child = spawn('/bin/sh', ledger ? ['-c', GATED_SHELL, options.command] : ['-c', options.command], {
    cwd: options.cwd,
    env: token ? { ...options.env, [PROCESS_TOKEN_ENV]: token } : options.env,
    detached: true,
    stdio: ledger ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
  });
  if (ledger && token && child.pid !== undefined) {
    const pgid = child.pid;
    try {
      ledger.add({
        pgid,
        token,
        node: options.node ?? '',
        command: options.command,
        started_at: new Date().toISOString(),
      });
    } catch (error) {
      killGroup(pgid, 'SIGKILL');
      throw error;
    }
    openGate(child);
  }
  const wire = (stream: NodeJS.ReadableStream, file: WriteStream, tail: TailBuffer) => {
    stream.on('data', (chunk: Buffer) => tail.push(chunk));
    stream.pipe(file);
    // A log that cannot be written (disk full) must not kill the run: the tail still has the output.
    file.on('error', () => stream.unpipe(file));
  };
  wire(child.stdout as Readable, stdoutFile, stdoutTail);
  wire(child.stderr as Readable, stderrFile, stderrTail);

  let timedOut = false;
  let stragglers = false;
  let cancelled = false;
  let killTimer: NodeJS.Timeout | undefined;
  const terminate = () => {
    const pid = child.pid;
    if (pid === undefined || killTimer) return;
    killGroup(pid, 'SIGTERM');
    killTimer = setTimeout(() => {
      killGroup(pid, 'SIGKILL');
      // Stragglers outlived the shell: the group leaves the ledger only once it has been killed.
      if (stragglers) ledger?.remove(pid);
    }, grace);
  };
  const timeoutTimer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          terminate();
        }, options.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    terminate();
  };
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener('abort', onAbort, { once: true });

  try {
    const [exitCode, exitSignal] = await new Promise<[number | null, string | null]>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => {
        // Stragglers would keep our pipes open, and outlive the node.
        if (child.pid !== undefined && groupAlive(child.pid)) {
          stragglers = true;
          terminate();
        }
        child.once('close', () => resolve([code, signal]));
      });
    });
    // We do not wait for stragglers to die: under an init that never reaps, their zombies would look
    // alive until the deadline. The pending SIGKILL stays armed, without holding the event loop open.
    if (stragglers) {
      killTimer?.unref();
      killTimer = undefined;
    }
    await Promise.all([finished(stdoutFile).catch(() => {}), finished(stderrFile).catch(() => {})]);
    return {
      pid: child.pid,
      exitCode,
      exitSignal,
      timedOut,
      cancelled: cancelled && !timedOut,
      stdoutTail: stdoutTail.toString(),
      stderrTail: stderrTail.toString(),
      durationMs: Date.now() - started,
    };
  } finally {
    clearTimeout(timeoutTimer);
    clearTimeout(killTimer);
    if (ledger && child.pid !== undefined && !stragglers) ledger.remove(child.pid);
    options.signal.removeEventListener('abort', onAbort);
    stdoutFile.end();
    stderrFile.end();
  }
}
