import { realpathSync } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import { definedFields } from '../../shared/defined-fields.js';
import { AttractorError } from '../../shared/errors.js';
import { filterSecretEnv } from '../../shared/process/filter-secret-env.js';
import { killGroup } from '../../shared/process/process-group.js';
import type { ProcessLedger } from '../../shared/process/process-ledger.js';
import { passedSecrets, redactSecrets } from '../../shared/process/redact-secrets.js';
import type { SandboxSpec } from '../../shared/sandbox/sandbox-policy.js';
import { applyFileChanges } from './apply-file-changes.js';
import type {
  DirEntry,
  ExecOptions,
  ExecResult,
  ExecutionEnvironment,
  FileChange,
  GrepOptions,
  GrepResult,
} from './execution-environment.js';
import { FileNotFoundError } from './file-not-found-error.js';
import { globFiles } from './glob-files.js';
import { grepFiles } from './grep-files.js';
import { listDirectory } from './list-directory.js';
import { PathOutsideWorkdirError } from './path-outside-workdir-error.js';
import { isInside, resolveInside } from './resolve-inside.js';
import { spawnCommand } from './spawn-command.js';
import { toPosix } from './walk-files.js';

export interface LocalExecutionEnvironmentOptions {
  /** Default: `process.cwd()`. Must exist. */
  workingDir?: string;
  /** Names of filtered variables a pipeline lets through anyway (`env_passthrough`). */
  envPassthrough?: readonly string[];
  /** The environment commands inherit before filtering (default `process.env`). */
  baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Default 10 000 ms. */
  defaultTimeoutMs?: number;
  /** SIGTERM → SIGKILL delay, default 2 000 ms. */
  killGraceMs?: number;
  /** Characters of each output stream kept in memory (half head, half tail), default 1 000 000. */
  outputCapChars?: number;
  /** The run's process ledger: every command's process group is recorded there before it starts. */
  processes?: Pick<ProcessLedger, 'add' | 'remove'>;
  /** Node id recorded with each process group. */
  node?: string;
  /**
   * Commands (and so tool hooks) run inside bubblewrap under this policy (decision 0341); the file tools
   * also refuse its hidden folders.
   */
  sandbox?: SandboxSpec;
}

/**
 * The host's file system and processes, confined to one working directory: every path is resolved
 * (symlinks included) and refused when it leaves it, commands get the environment without credentials
 * (`*_API_KEY`, `*_SECRET`, `*_TOKEN`, `*_PASSWORD`, `*_CREDENTIAL(S)` …) except the passthrough names, and
 * run in their own process group that is killed on timeout, abort or `cleanup()`.
 *
 * @example
 * const env = new LocalExecutionEnvironment({ workingDir: '/tmp/project', envPassthrough: ['GH_TOKEN'] });
 * const { stdout, exitCode } = await env.execCommand('git status --short');
 */
export class LocalExecutionEnvironment implements ExecutionEnvironment {
  readonly workingDirectory: string;
  readonly platform = process.platform;
  readonly osVersion = `${os.type()} ${os.release()}`;
  readonly #passthrough: readonly string[];
  readonly #baseEnv: Readonly<Record<string, string | undefined>>;
  readonly #defaultTimeoutMs: number;
  readonly #killGraceMs: number;
  readonly #outputCapChars: number;
  readonly #processes: Pick<ProcessLedger, 'add' | 'remove'> | undefined;
  readonly #node: string;
  readonly #sandbox: SandboxSpec | undefined;
  readonly #running = new Set<number>();
  /** The working directory as given, before symlinks were resolved. */
  readonly #alias: string;

  constructor(options: LocalExecutionEnvironmentOptions = {}) {
    this.#alias = path.resolve(options.workingDir ?? process.cwd());
    this.workingDirectory = realpathSync(this.#alias);
    this.#passthrough = options.envPassthrough ?? [];
    this.#baseEnv = options.baseEnv ?? process.env;
    this.#defaultTimeoutMs = options.defaultTimeoutMs ?? 10_000;
    this.#killGraceMs = options.killGraceMs ?? 2_000;
    this.#outputCapChars = options.outputCapChars ?? 1_000_000;
    this.#processes = options.processes;
    this.#node = options.node ?? '';
    this.#sandbox = options.sandbox;
  }

  async initialize(): Promise<void> {
    await access(this.workingDirectory);
  }

  async cleanup(): Promise<void> {
    for (const pid of this.#running) killGroup(pid, 'SIGKILL');
    this.#running.clear();
  }

  async resolvePath(target: string): Promise<string> {
    const real = await resolveInside(this.workingDirectory, target, this.#alias);
    // What the sandbox hides from commands (the server's data, other runs) the file tools do not reach either.
    // A writable folder inside a hidden one (the run's own, a worker's working copy) stays reachable.
    const writable = this.#sandbox?.policy.writable ?? [];
    const hiddenHere = (hidden: string): boolean =>
      isInside(hidden, real) &&
      !writable.some((dir) => dir !== hidden && isInside(hidden, dir) && isInside(dir, real));
    if ((this.#sandbox?.policy.hidden ?? []).some(hiddenHere)) {
      throw new PathOutsideWorkdirError(target, this.workingDirectory);
    }
    return real;
  }

  async readFile(target: string): Promise<string> {
    const real = await this.resolvePath(target);
    try {
      return await readFile(real, 'utf8');
    } catch (error) {
      throw notFound(error, target);
    }
  }

  async writeFile(target: string, content: string): Promise<void> {
    writeFileAtomic(await this.resolvePath(target), content, { durable: false });
  }

  async applyChanges(changes: readonly FileChange[]): Promise<void> {
    const resolved = [];
    for (const change of changes) {
      resolved.push({ absolutePath: await this.resolvePath(change.path), content: change.content });
    }
    await applyFileChanges(resolved);
  }

  async fileExists(target: string): Promise<boolean> {
    const real = await this.resolvePath(target);
    return stat(real).then(
      () => true,
      () => false,
    );
  }

  async listDirectory(target: string, depth = 1): Promise<DirEntry[]> {
    const real = await this.resolvePath(target);
    const info = await stat(real).catch((error: unknown) => {
      throw notFound(error, target);
    });
    if (!info.isDirectory())
      throw new AttractorError('agent.not_a_directory', `Error: not a directory: ${target}`);
    return listDirectory(real, depth);
  }

  async execCommand(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const cwd = options.workingDir ? await this.resolvePath(options.workingDir) : this.workingDirectory;
    // What the command prints reaches the model, events and transcripts: a secret let through is not shown.
    const secrets = passedSecrets(this.#baseEnv, this.#passthrough);
    const onOutput = options.onOutput;
    const result = await spawnCommand(command, {
      cwd,
      env: { ...filterSecretEnv(this.#baseEnv, this.#passthrough), ...options.envVars },
      timeoutMs: options.timeoutMs ?? this.#defaultTimeoutMs,
      killGraceMs: this.#killGraceMs,
      outputCapChars: this.#outputCapChars,
      ...definedFields({ signal: options.signal }),
      ...(onOutput
        ? {
            onOutput: (chunk: string, stream: 'stdout' | 'stderr') =>
              onOutput(redactSecrets(chunk, secrets), stream),
          }
        : {}),
      ...definedFields({ input: options.input }),
      ...(this.#sandbox ? { sandbox: this.#sandbox } : {}),
      track: (pid, running) => {
        if (running) this.#running.add(pid);
        else {
          this.#running.delete(pid);
          this.#processes?.remove(pid);
        }
      },
      ...(this.#processes
        ? { record: (pgid: number, token: string) => this.#record(pgid, token, command) }
        : {}),
    });
    if (secrets.size === 0) return result;
    return {
      ...result,
      stdout: redactSecrets(result.stdout, secrets),
      stderr: redactSecrets(result.stderr, secrets),
    };
  }

  #record(pgid: number, token: string, command: string): void {
    this.#processes?.add({ pgid, token, node: this.#node, command, started_at: new Date().toISOString() });
  }

  async grep(pattern: string, target = '.', options: GrepOptions = {}): Promise<GrepResult> {
    const real = await this.resolvePath(target);
    try {
      return await grepFiles(this.workingDirectory, real, pattern, options);
    } catch (error) {
      throw notFound(error, target);
    }
  }

  async glob(pattern: string, target = '.'): Promise<string[]> {
    const real = await this.resolvePath(target);
    try {
      await stat(real);
    } catch (error) {
      throw notFound(error, target);
    }
    return globFiles(real, this.#relativePattern(pattern, real));
  }

  /** Models often glob with absolute patterns: `/work/src/**\/*.ts` means `src/**\/*.ts` under the root. */
  #relativePattern(pattern: string, base: string): string {
    if (!path.isAbsolute(pattern)) return pattern;
    const viaAlias = isInside(this.#alias, pattern) && !isInside(this.workingDirectory, pattern);
    const absolute = viaAlias
      ? path.join(this.workingDirectory, path.relative(this.#alias, pattern))
      : pattern;
    if (!isInside(base, absolute)) throw new PathOutsideWorkdirError(pattern, this.workingDirectory);
    return toPosix(path.relative(base, absolute));
  }
}

/** ENOENT and EISDIR as typed errors the tools turn into text for the model; anything else unchanged. */
function notFound(error: unknown, target: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new FileNotFoundError(target, { cause: error });
  if (code === 'EISDIR') return new AttractorError('agent.is_a_directory', `Error: ${target} is a directory`);
  return error;
}
