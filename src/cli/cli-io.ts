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
}

export function processIo(): CliIo {
  return {
    stdout: (text) => {
      process.stdout.write(text);
    },
    stderr: (text) => {
      process.stderr.write(text);
    },
    env: process.env,
    isTTY: process.stdout.isTTY === true,
    cwd: process.cwd(),
  };
}
