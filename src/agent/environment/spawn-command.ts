import { existsSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { definedFields } from '../../shared/defined-fields.js';
import { spawnProcessGroup } from '../../shared/process/spawn-process-group.js';
import type { SandboxSpec } from '../../shared/sandbox/sandbox-policy.js';
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
  /** Run inside bubblewrap under this policy (decision 0341). */
  sandbox?: SandboxSpec;
}

/**
 * bash with `--norc`: given a socket as stdin (how Node passes `input`), Debian's bash thinks it was started
 * by a remote shell daemon and reads ~/.bashrc, which would make a command's behaviour depend on the host.
 */
const SHELL: readonly [string, ...string[]] = existsSync('/bin/bash')
  ? ['/bin/bash', '--norc', '--noprofile']
  : ['/bin/sh'];

/** Decodes a byte stream as UTF-8 into a bounded head and tail, handing each decoded piece on. */
function decodedInto(text: HeadTailText, onText: ((chunk: string) => void) | undefined) {
  const decoder = new StringDecoder('utf8');
  const push = (decoded: string) => {
    if (decoded.length === 0) return;
    text.push(decoded);
    onText?.(decoded);
  };
  return { write: (chunk: Buffer) => push(decoder.write(chunk)), end: () => push(decoder.end()) };
}

/**
 * Runs `command` with bash through the process-group spawner (`shared/process/spawn-process-group.ts`):
 * its own group, killed whole on timeout or abort, inside the sandbox when one is given. Output is decoded
 * as it arrives, handed to `onOutput`, and kept only as a bounded head and tail; the sandbox's note, when it
 * has one, ends stderr.
 */
export async function spawnCommand(command: string, options: SpawnCommandOptions): Promise<ExecResult> {
  const half = Math.floor(options.outputCapChars / 2);
  const stdout = new HeadTailText(half, options.outputCapChars - half);
  const stderr = new HeadTailText(half, options.outputCapChars - half);
  const out = decodedInto(stdout, options.onOutput && ((chunk) => options.onOutput?.(chunk, 'stdout')));
  const err = decodedInto(stderr, options.onOutput && ((chunk) => options.onOutput?.(chunk, 'stderr')));
  const record = options.record;
  const exit = await spawnProcessGroup({
    argv: [...SHELL, '-c', command],
    cwd: options.cwd,
    env: options.env,
    timeoutMs: options.timeoutMs,
    killGraceMs: options.killGraceMs,
    ...definedFields({ signal: options.signal }),
    ...(options.input === undefined ? {} : { input: options.input }),
    record: (pgid, token) => {
      options.track?.(pgid, true);
      record?.(pgid, token);
    },
    release: (pgid) => options.track?.(pgid, false),
    onStdout: out.write,
    onStderr: err.write,
    ...definedFields({ sandbox: options.sandbox }),
  });
  out.end();
  err.end();
  if (exit.spawnError) stderr.push(`${exit.spawnError}\n`);
  if (exit.sandboxNote) err.write(Buffer.from(`\n${exit.sandboxNote}\n`));
  return {
    stdout: stdout.toString(),
    stderr: stderr.toString(),
    exitCode: exit.code,
    timedOut: exit.timedOut,
    aborted: exit.aborted,
    durationMs: exit.durationMs,
    omittedChars: stdout.omitted + stderr.omitted,
  };
}
