import path from 'node:path';
import { AttractorError } from '../errors.js';
import { INSTALL_HINT, probeSandbox } from './probe-sandbox.js';
import type { SandboxSettings } from './sandbox-settings.js';

/**
 * serve/worker (decision 0341): a working sandbox, or `--unsandboxed`, which also lets pipelines say
 * `sandbox="off"`. `dataDir` (and its runs) no command may see, even inside its working tree.
 */
export function serverSandbox(
  unsandboxed: boolean,
  dataDir: string | undefined,
  role: string,
): SandboxSettings {
  // Its `runs` too: a server started inside its own data dir works there, and still hides the runs.
  const hidden = dataDir ? [dataDir, path.join(dataDir, 'runs')] : [];
  const probe = probeSandbox();
  if (probe.available) return { mode: 'on', bwrap: probe.bwrap, allowOff: unsandboxed, hidden, writable: [] };
  if (unsandboxed) return { mode: 'off' };
  throw new AttractorError(
    'NO_SANDBOX',
    `attractor ${role} runs the commands of submitted pipelines only inside a sandbox, and this machine has none: ${probe.reason}. ${INSTALL_HINT[0]?.toUpperCase()}${INSTALL_HINT.slice(1)}, or start it with --unsandboxed to run them with its own rights.`,
  );
}
