import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { BWRAP_ISOLATION } from './bwrap-arguments.js';

/** Whether commands can be sandboxed here, and if not, why (said once to the user). */
export type SandboxProbe = { available: true; bwrap: string } | { available: false; reason: string };

export const INSTALL_HINT = 'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)';

/** `bwrap` on `PATH`, or undefined. */
export function findBwrap(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  for (const dir of (env['PATH'] ?? '/usr/bin:/bin').split(':')) {
    if (!dir) continue;
    const candidate = path.join(dir, 'bwrap');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

let cached: SandboxProbe | undefined;

/**
 * Runs `true` in a sandbox made as every command's is (user, pid, network namespaces; no capabilities):
 * bubblewrap installed but unable to make them (user namespaces disabled) is no sandbox either. The answer is
 * kept for the life of the process.
 */
export function probeSandbox(): SandboxProbe {
  if (cached) return cached;
  cached = probeOnce();
  return cached;
}

function probeOnce(): SandboxProbe {
  if (process.platform !== 'linux') {
    return {
      available: false,
      reason: `the sandbox is built on Linux namespaces; ${process.platform} has none`,
    };
  }
  const bwrap = findBwrap();
  if (!bwrap) return { available: false, reason: `bubblewrap (bwrap) is not installed; ${INSTALL_HINT}` };
  const result = spawnSync(bwrap, ['--ro-bind', '/', '/', ...BWRAP_ISOLATION, '--', 'true'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (result.status === 0) return { available: true, bwrap };
  const why = (result.stderr || result.error?.message || `exit ${result.status}`).trim();
  return {
    available: false,
    reason: `bubblewrap cannot make a sandbox here (${why}); user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1)`,
  };
}
