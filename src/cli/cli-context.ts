import type { CliIo } from './cli-io.js';
import type { Colors } from './colors.js';

/** What every command's action receives besides its own arguments and flags. */
export interface CliContext {
  io: CliIo;
  colors: Colors;
  /** True when the global `--verbose` flag was given. */
  verbose: () => boolean;
  /** The process exit code `main()` returns once the action settles. */
  setExitCode: (code: number) => void;
}
