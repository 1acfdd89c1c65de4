import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { killGroup } from '../../shared/process/process-group.js';
import { TailBuffer } from '../tool/tail-buffer.js';
import { terminateProcessGroup } from './kill-process-group.js';
import { type ProcessRecorder, processToken, recordProcessGroup } from './record-process-group.js';

/** Groups of agents still running: killed if this process exits first, so no agent outlives a run. */
const live = new Set<number>();
let exitHookInstalled = false;

function trackGroup(pid: number): void {
  live.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const group of live) killGroup(group, 'SIGKILL');
  });
}

export interface AgentExit {
  code: number | null;
  signal: string | null;
}

/**
 * One running agent: its own process group (so the agent and everything it starts can be stopped
 * together), stdio as web streams for the SDK's NDJSON transport, and the end of its stderr for error
 * messages (stderr is where agents log; it never carries protocol).
 */
export class AgentProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<AgentExit>;
  readonly #stderr = new TailBuffer(4096);
  #exit: AgentExit | undefined;
  readonly #forget: () => void;

  constructor(options: {
    command: string;
    cwd: string;
    env: Record<string, string>;
    ledger?: ProcessRecorder;
    node?: string;
  }) {
    const { token, env } = processToken(options.env);
    // `exec` so the agent itself leads the group and receives our signals directly.
    this.child = spawn('/bin/sh', ['-c', `exec ${options.command}`], {
      cwd: options.cwd,
      env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const pid = this.child.pid;
    if (pid !== undefined) trackGroup(pid);
    this.#forget = recordProcessGroup(options.ledger, {
      pgid: pid,
      token,
      node: options.node ?? '',
      command: options.command,
    });
    this.child.stderr.on('data', (chunk: Buffer) => this.#stderr.push(chunk));
    // A write to an agent that already died must surface as its exit, not as an unhandled EPIPE.
    this.child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => {
      const settle = (exit: AgentExit) => {
        this.#exit ??= exit;
        resolve(this.#exit);
      };
      this.child.once('error', () => settle({ code: 127, signal: null }));
      this.child.once('close', (code, signal) => settle({ code, signal }));
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get exit(): AgentExit | undefined {
    return this.#exit;
  }

  /** The last few KB of the agent's stderr, trimmed. */
  stderrTail(): string {
    return this.#stderr.toString().trim();
  }

  /** Web streams for `ndJsonStream(output, input)`. */
  streams(): { output: WritableStream<Uint8Array>; input: ReadableStream<Uint8Array> } {
    return {
      output: Writable.toWeb(this.child.stdin) as WritableStream<Uint8Array>,
      input: Readable.toWeb(this.child.stdout) as ReadableStream<Uint8Array>,
    };
  }

  /** Stop the whole group: SIGTERM, SIGKILL after `graceMs`; then wait for the agent's own exit. */
  async kill(graceMs: number): Promise<AgentExit> {
    const pid = this.child.pid;
    if (pid !== undefined) await terminateProcessGroup(pid, graceMs);
    const exit = await this.exited;
    if (pid !== undefined) live.delete(pid);
    this.#forget();
    return exit;
  }

  /** True while any process of the agent's group is alive. */
  groupAlive(): boolean {
    return this.child.pid !== undefined && killGroup(this.child.pid, 0);
  }
}
