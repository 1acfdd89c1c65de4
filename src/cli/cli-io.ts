/**
 * What the CLI touches of its process, injectable so tests can run `main()` in-process
 * and read exactly what a user would see.
 */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** Whether stdout is a terminal: colours and the TUI only appear there. */
  isTTY: boolean;
  /** Base for relative file arguments. */
  cwd: string;
  /**
   * Calls `listener` once when the reader of stdout goes away (`attractor run … | head -1`); returns
   * an unsubscribe. A run treats that as an interruption.
   */
  onStdoutClosed?: (listener: () => void) => () => void;
}

export function processIo(): CliIo {
  let closed = false;
  const listeners = new Set<() => void>();
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // EPIPE: the reader closed the pipe; a write racing the close reports the stream destroyed.
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    if (closed) return;
    closed = true;
    for (const listener of [...listeners]) listener();
  });
  return {
    stdout: (text) => {
      // After EPIPE every write would fail again: the reader said "enough", so stop printing.
      if (!closed) process.stdout.write(text);
    },
    stderr: (text) => {
      process.stderr.write(text);
    },
    env: process.env,
    isTTY: process.stdout.isTTY === true,
    cwd: process.cwd(),
    onStdoutClosed: (listener) => {
      if (closed) queueMicrotask(listener);
      else listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
