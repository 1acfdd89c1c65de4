/**
 * What agent tools use to touch the world: files, processes and
 * searches, all confined to one working directory. Tools never call `node:fs` or `child_process`
 * themselves, so a session can run against another implementation (a container, a read-only wrapper, a
 * test double) without changing a tool. Paths may be relative (to `workingDirectory`) or absolute, but
 * every method refuses a path that leaves the working directory, symlinks included
 * (`PathOutsideWorkdirError`); a missing file is a `FileNotFoundError`.
 */
export interface ExecutionEnvironment {
  /** Absolute, symlinks resolved. */
  readonly workingDirectory: string;
  /** `process.platform` style: `linux`, `darwin`, `win32`. */
  readonly platform: string;
  readonly osVersion: string;
  /** Setup before the first tool runs. */
  initialize(): Promise<void>;
  /** Kills processes still running and releases resources; the session calls it at shutdown. */
  cleanup(): Promise<void>;
  /** The absolute real path `path` names, or `PathOutsideWorkdirError` when it leaves the working directory. */
  resolvePath(path: string): Promise<string>;
  /** The whole file as UTF-8 text (tools add line numbers and windows themselves). */
  readFile(path: string): Promise<string>;
  /** Creates parent directories; atomic (temp file + rename). */
  writeFile(path: string, content: string): Promise<void>;
  /**
   * Applies several writes and deletions so that either all happen or none (as far as a file system
   * allows): every path is checked and every new content staged before the first one replaces anything.
   */
  applyChanges(changes: readonly FileChange[]): Promise<void>;
  fileExists(path: string): Promise<boolean>;
  /** Entries up to `depth` levels below `path` (1 = direct children), directories first then by name. */
  listDirectory(path: string, depth?: number): Promise<DirEntry[]>;
  /** Runs `command` with a shell in its own process group; see `ExecOptions`. Never throws for a failing command. */
  execCommand(command: string, options?: ExecOptions): Promise<ExecResult>;
  /** Regex search over the files under `path` (default: the working directory). */
  grep(pattern: string, path?: string, options?: GrepOptions): Promise<GrepResult>;
  /** Absolute paths of the files under `path` matching `pattern`, newest modification first. */
  glob(pattern: string, path?: string): Promise<string[]>;
}

export interface DirEntry {
  name: string;
  /** Relative to the listed directory, `/`-separated. */
  path: string;
  isDir: boolean;
  /** Bytes; 0 for directories. */
  size: number;
  /** 1 for direct children of the listed directory. */
  depth: number;
}

/** One file to write (`content` a string) or delete (`content` null). */
export interface FileChange {
  path: string;
  content: string | null;
}

export interface ExecOptions {
  /** Default 10 000 ms. On expiry: SIGTERM to the group, SIGKILL 2 s later. */
  timeoutMs?: number;
  /** Aborting kills the process group the same way. */
  signal?: AbortSignal;
  /** Every chunk of output as it arrives (decoded UTF-8), so a caller can stream it. */
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
  /** Inside the working directory; default the working directory. */
  workingDir?: string;
  /** Added to the filtered environment (they win over inherited names). */
  envVars?: Record<string, string>;
  /** Written to the command's stdin, which is then closed; without it stdin is empty (`/dev/null`). */
  input?: string;
}

export interface ExecResult {
  /**
   * The output kept in memory: all of it when small, else its head and tail with the middle dropped
   * (`omittedChars` says how much), so a command printing gigabytes cannot exhaust memory.
   */
  stdout: string;
  stderr: string;
  /** The shell's exit code; 128 + signal number when it was killed by a signal. */
  exitCode: number;
  timedOut: boolean;
  /** The `signal` aborted the command. */
  aborted: boolean;
  durationMs: number;
  /** Characters dropped from the middle of stdout and stderr together. */
  omittedChars: number;
}

export interface GrepOptions {
  /** Glob on the file name (`*.ts`), or on the relative path when it contains `/`. */
  include?: string;
  /** Default 100. */
  maxResults?: number;
  caseInsensitive?: boolean;
}

export interface GrepMatch {
  /** Relative to the working directory, `/`-separated. */
  path: string;
  /** 1-based. */
  line: number;
  text: string;
}

export interface GrepResult {
  matches: GrepMatch[];
  /** More matches existed than `maxResults`. */
  limited: boolean;
}
