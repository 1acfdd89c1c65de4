import type { CliIo } from '../../src/cli/cli-io.js';
import { main } from '../../src/cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `main()` in-process with captured output; not a TTY unless asked. */
export async function runCli(argv: string[], overrides: Partial<CliIo> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: {},
    isTTY: false,
    cwd: process.cwd(),
    ...overrides,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** A line that looks like a JavaScript stack frame: the thing users must never see without --verbose. */
export const STACK_LINE = /^\s+at .+[:(]/m;
