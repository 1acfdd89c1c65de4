import { AttractorError } from '../shared/errors.js';
import { probeSandbox } from '../shared/sandbox/probe-sandbox.js';
import type { SandboxSettings } from '../shared/sandbox/sandbox-settings.js';

/** `--sandbox on|off`, checked by commander (a bad value is a usage error). */
export function parseSandboxFlag(value: string): 'on' | 'off' {
  const mode = value.trim().toLowerCase();
  if (mode === 'on' || mode === 'off') return mode;
  throw new AttractorError('BAD_FLAG', `--sandbox must be on or off, got "${value}".`);
}

/**
 * The CLI's sandbox (decision 0341): on unless `--sandbox off`, honouring a pipeline's `sandbox="off"`.
 * On a machine without one, `warn` is told once (with how to install it) and commands run as before.
 */
export function cliSandbox(flag: 'on' | 'off' | undefined, warn: (line: string) => void): SandboxSettings {
  if (flag === 'off') return { mode: 'off' };
  const probe = probeSandbox();
  if (!probe.available) {
    warn(`attractor: no sandbox on this machine, commands run with your full rights: ${probe.reason}\n`);
    return { mode: 'off' };
  }
  return { mode: 'on', bwrap: probe.bwrap, allowOff: true, hidden: [], writable: [] };
}
