import { createWriteStream, mkdirSync, openSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { finished } from 'node:stream/promises';
import { definedFields } from '../../shared/defined-fields.js';
import type { ProcessLedger } from '../../shared/process/process-ledger.js';
import { spawnProcessGroup } from '../../shared/process/spawn-process-group.js';
import type { SandboxSpec } from '../../shared/sandbox/sandbox-policy.js';
import { TailBuffer } from './tail-buffer.js';

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
  /** Run inside bubblewrap under this policy (decision 0341). */
  sandbox?: SandboxSpec;
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
  /** Ends with the sandbox's note when the sandbox blocked something the command needed. */
  stderrTail: string;
  durationMs: number;
}

function openLog(file: string): WriteStream {
  mkdirSync(dirname(file), { recursive: true });
  // Opened synchronously so a bad path fails here, not later as an unhandled stream error.
  const stream = createWriteStream(file, { fd: openSync(file, 'w') });
  // A log that cannot be written (disk full) must not kill the run: the tail still has the output.
  stream.on('error', () => undefined);
  return stream;
}

/**
 * Run a tool node's shell command through the process-group spawner, streaming its output to files and
 * keeping a bounded tail in memory. A tool node leaves nothing running (use `setsid` outside the sandbox
 * to opt out). The sandbox's note, when it has one, ends stderr in the log and in the tail.
 *
 * @example
 * const result = await runTool({ command: 'npm test', cwd, env, signal, stdoutPath, stderrPath });
 * if (result.exitCode !== 0) console.error(result.stderrTail);
 */
export async function runTool(options: RunToolOptions): Promise<ToolRunResult> {
  const tailBytes = options.tailBytes ?? 4096;
  const stdoutFile = openLog(options.stdoutPath);
  const stderrFile = openLog(options.stderrPath);
  const stdoutTail = new TailBuffer(tailBytes);
  const stderrTail = new TailBuffer(tailBytes);
  const ledger = options.ledger;
  try {
    const exit = await spawnProcessGroup({
      argv: ['/bin/sh', '-c', options.command],
      cwd: options.cwd,
      env: options.env,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      signal: options.signal,
      killGraceMs: options.killGraceMs ?? 2000,
      ...(ledger
        ? {
            record: (pgid: number, token: string) =>
              ledger.add({
                pgid,
                token,
                node: options.node ?? '',
                command: options.command,
                started_at: new Date().toISOString(),
              }),
            release: (pgid: number) => ledger.remove(pgid),
          }
        : {}),
      onStdout: (chunk) => {
        stdoutTail.push(chunk);
        stdoutFile.write(chunk);
      },
      onStderr: (chunk) => {
        stderrTail.push(chunk);
        stderrFile.write(chunk);
      },
      ...definedFields({ sandbox: options.sandbox }),
    });
    if (exit.spawnError) throw new Error(exit.spawnError);
    if (exit.sandboxNote) {
      const note = Buffer.from(`\n${exit.sandboxNote}\n`);
      stderrTail.push(note);
      stderrFile.write(note);
    }
    return {
      pid: exit.pid,
      exitCode: exit.signal ? null : exit.code,
      exitSignal: exit.signal,
      timedOut: exit.timedOut,
      cancelled: exit.aborted,
      stdoutTail: stdoutTail.toString(),
      stderrTail: stderrTail.toString(),
      durationMs: exit.durationMs,
    };
  } finally {
    stdoutFile.end();
    stderrFile.end();
    await Promise.all([finished(stdoutFile).catch(() => {}), finished(stderrFile).catch(() => {})]);
  }
}
