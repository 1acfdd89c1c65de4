import type {
  CreateTerminalRequest,
  TerminalExitStatus,
  TerminalOutputResponse,
} from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { definedFields } from '../../shared/defined-fields.js';
import { spawnProcessGroup } from '../../shared/process/spawn-process-group.js';
import type { SandboxSpec } from '../../shared/sandbox/sandbox-policy.js';
import { TailBuffer } from '../tool/tail-buffer.js';
import { confineToWorkspace } from './confine-to-workspace.js';
import type { ProcessRecorder } from './record-process-group.js';

/** Output kept per terminal when the agent sets no `outputByteLimit`. */
const DEFAULT_OUTPUT_BYTES = 1024 * 1024;

interface Terminal {
  stop: AbortController;
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
  /** Every terminal runs inside bubblewrap under this policy (decision 0341). */
  sandbox?: SandboxSpec;
}

/**
 * The client side of ACP `terminal/*`: each command runs through the process-group spawner (its own
 * group, inside the sandbox when there is one), in the working directory (or a cwd inside it), with the
 * tool node's filtered environment plus the variables the agent asked for. Output (stdout and stderr
 * interleaved) is kept up to the agent's byte limit, cut from the front at a character boundary.
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
    const env = { ...this.#options.env };
    for (const variable of request.env ?? []) env[variable.name] = variable.value;
    const args = request.args ?? [];
    // A bare command line (no args) is what most agents send; the shell gives it pipes and globs.
    const argv: [string, ...string[]] =
      args.length === 0 ? ['/bin/sh', '-c', request.command] : [request.command, ...args];
    const output = new TailBuffer(request.outputByteLimit ?? DEFAULT_OUTPUT_BYTES);
    const stop = new AbortController();
    const ledger = this.#options.ledger;
    const node = this.#options.node ?? '';
    const terminal: Terminal = {
      stop,
      output,
      exit: spawnProcessGroup({
        argv,
        cwd,
        env,
        signal: stop.signal,
        killGraceMs: this.#options.killGraceMs,
        ...(ledger
          ? {
              record: (pgid: number, token: string) =>
                ledger.add({
                  pgid,
                  token,
                  node,
                  command: request.command,
                  started_at: new Date().toISOString(),
                }),
              release: (pgid: number) => ledger.remove(pgid),
            }
          : {}),
        onStdout: (chunk) => output.push(chunk),
        onStderr: (chunk) => output.push(chunk),
        ...(this.#options.sandbox ? { sandbox: this.#options.sandbox } : {}),
      }).then((exit) => {
        if (exit.spawnError) output.push(Buffer.from(`${exit.spawnError}\n`));
        if (exit.sandboxNote) output.push(Buffer.from(`\n${exit.sandboxNote}\n`));
        terminal.status ??= exit.signal
          ? { exitCode: null, signal: exit.signal }
          : { exitCode: exit.code, signal: null };
        return terminal.status;
      }),
    };
    const id = `term-${this.#next++}`;
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
      ...definedFields({ exitStatus: terminal.status }),
    };
  }

  waitForExit(id: string): Promise<TerminalExitStatus> {
    return this.#get(id).exit;
  }

  async kill(id: string): Promise<void> {
    const terminal = this.#get(id);
    if (terminal.status !== undefined) return;
    terminal.stop.abort();
    await terminal.exit;
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
