import { type ChildProcess, spawn } from 'node:child_process';
import type {
  CreateTerminalRequest,
  TerminalExitStatus,
  TerminalOutputResponse,
} from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { killGroup } from '../../shared/process/process-group.js';
import { TailBuffer } from '../tool/tail-buffer.js';
import { confineToWorkspace } from './confine-to-workspace.js';
import { terminateProcessGroup } from './kill-process-group.js';
import { type ProcessRecorder, processToken, recordProcessGroup } from './record-process-group.js';

/** Output kept per terminal when the agent sets no `outputByteLimit`. */
const DEFAULT_OUTPUT_BYTES = 1024 * 1024;

interface Terminal {
  child: ChildProcess;
  output: TailBuffer;
  exit: Promise<TerminalExitStatus>;
  status?: TerminalExitStatus;
}

export interface AgentTerminalsOptions {
  /** Confinement roots; the first is the default cwd. */
  roots: readonly string[];
  /** The filtered environment of tool nodes (secrets removed, `env_passthrough` kept). */
  env: Record<string, string>;
  killGraceMs: number;
  /** The run's process ledger and the node recorded with each terminal's group. */
  ledger?: ProcessRecorder;
  node?: string;
}

/**
 * The client side of ACP `terminal/*`: each command runs in its own process group, in the working
 * directory (or a cwd inside it), with the tool node's filtered environment plus the variables the
 * agent asked for. Output (stdout and stderr interleaved) is kept up to the agent's byte limit, cut from
 * the front at a character boundary.
 */
export class AgentTerminals {
  readonly #options: AgentTerminalsOptions;
  readonly #terminals = new Map<string, Terminal>();
  #next = 1;

  constructor(options: AgentTerminalsOptions) {
    this.#options = options;
  }

  create(request: CreateTerminalRequest): string {
    const cwd = confineToWorkspace(request.cwd ?? this.#options.roots[0] ?? '.', this.#options.roots);
    if (cwd === undefined) {
      throw RequestError.invalidParams(undefined, `cwd ${request.cwd} is outside the working directory`);
    }
    const requested = { ...this.#options.env };
    for (const variable of request.env ?? []) requested[variable.name] = variable.value;
    const { token, env } = processToken(requested);
    const args = request.args ?? [];
    // A bare command line (no args) is what most agents send; the shell gives it pipes and globs.
    const [file, argv] = args.length === 0 ? ['/bin/sh', ['-c', request.command]] : [request.command, args];
    const child = spawn(file, argv, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = new TailBuffer(request.outputByteLimit ?? DEFAULT_OUTPUT_BYTES);
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    const forget = recordProcessGroup(this.#options.ledger, {
      pgid: child.pid,
      token,
      node: this.#options.node ?? '',
      command: request.command,
    });
    const id = `term-${this.#next++}`;
    const terminal: Terminal = {
      child,
      output,
      exit: new Promise((resolve) => {
        child.once('error', (error) => {
          output.push(Buffer.from(`${error.message}\n`));
          terminal.status ??= { exitCode: 127, signal: null };
          resolve(terminal.status);
        });
        child.once('close', (code, signal) => {
          // Background processes the command left behind must not outlive it.
          if (child.pid !== undefined && killGroup(child.pid, 0)) {
            void terminateProcessGroup(child.pid, this.#options.killGraceMs).then(forget);
          } else {
            forget();
          }
          terminal.status ??= { exitCode: code, signal };
          resolve(terminal.status);
        });
      }),
    };
    this.#terminals.set(id, terminal);
    return id;
  }

  #get(id: string): Terminal {
    const terminal = this.#terminals.get(id);
    if (!terminal) throw RequestError.resourceNotFound(id);
    return terminal;
  }

  output(id: string): TerminalOutputResponse {
    const terminal = this.#get(id);
    return {
      output: terminal.output.toString(),
      truncated: terminal.output.truncated,
      ...(terminal.status ? { exitStatus: terminal.status } : {}),
    };
  }

  waitForExit(id: string): Promise<TerminalExitStatus> {
    return this.#get(id).exit;
  }

  async kill(id: string): Promise<void> {
    const terminal = this.#get(id);
    if (terminal.status === undefined && terminal.child.pid !== undefined) {
      await terminateProcessGroup(terminal.child.pid, this.#options.killGraceMs);
    }
  }

  async release(id: string): Promise<void> {
    await this.kill(id);
    this.#terminals.delete(id);
  }

  /** Kill every terminal still running (end of the node visit). */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.#terminals.keys()].map((id) => this.release(id)));
  }
}
