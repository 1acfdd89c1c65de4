import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** Folders the sandbox always mounts read-only from the host (merged-/usr systems link the rest). */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc'] as const;

/** Variables that name a toolchain's home: mounted read-only so `cargo`, `pyenv`, `nvm` work inside. */
const TOOLCHAIN_VARIABLES = [
  'NVM_DIR',
  'NVM_BIN',
  'N_PREFIX',
  'VOLTA_HOME',
  'FNM_DIR',
  'PNPM_HOME',
  'BUN_INSTALL',
  'DENO_INSTALL',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'PYENV_ROOT',
  'RBENV_ROOT',
  'GOROOT',
  'JAVA_HOME',
  'SDKMAN_DIR',
  'ASDF_DIR',
  'ASDF_DATA_DIR',
] as const;

const isUnder = (parent: string, child: string): boolean =>
  child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);

/** Read-only toolchain folders (real paths), and the links that lead to them (nvm's `current`). */
export interface Toolchains {
  dirs: string[];
  links: Array<{ from: string; to: string }>;
}

/**
 * The toolchain folders `env` points to (its `PATH` and the toolchain variables), to be mounted
 * read-only at their real paths: a `…/bin` or `node_modules/.bin` entry brings its parent
 * (`~/.cargo/bin` → `~/.cargo`, whose libraries it needs), but never the home folder itself, `/`, or a
 * folder that holds the home folder — the rest of the home folder (`~/.ssh`, `~/.aws`, …) stays out.
 * System folders are left to `SYSTEM_DIRS`. A path reached through a link is listed in `links`, so the
 * sandbox can make the same link.
 */
export function toolchainPaths(
  env: Readonly<Record<string, string | undefined>>,
  extra: readonly string[] = [],
): Toolchains {
  const home = env['HOME'] && env['HOME'] !== '/' ? path.resolve(env['HOME']) : undefined;
  const allowed = (dir: string): boolean =>
    dir !== '/' && !(home && isUnder(dir, home)) && !SYSTEM_DIRS.some((system) => isUnder(system, dir));
  const links: Toolchains['links'] = [];
  const accept = (candidate: string | undefined): string | undefined => {
    if (!candidate || !path.isAbsolute(candidate) || !existsSync(candidate)) return undefined;
    const dir = path.resolve(candidate);
    const real = realpathSync(dir);
    if (!allowed(dir) || !allowed(real)) return undefined;
    if (real !== dir && !links.some((link) => link.from === dir)) links.push({ from: dir, to: real });
    return real;
  };
  const parentOfBin = (entry: string): string | undefined =>
    ['bin', '.bin'].includes(path.basename(entry)) ? accept(path.dirname(entry)) : undefined;
  const found = new Set<string>();
  for (const entry of (env['PATH'] ?? '').split(':')) {
    const dir = parentOfBin(entry) ?? accept(entry);
    if (dir) found.add(dir);
  }
  for (const candidate of [...TOOLCHAIN_VARIABLES.map((name) => env[name]), ...extra]) {
    const dir = accept(candidate);
    if (dir) found.add(dir);
  }
  // A folder inside another already listed adds nothing.
  const sorted = [...found].sort();
  return {
    dirs: sorted.filter((dir) => !sorted.some((other) => other !== dir && isUnder(other, dir))),
    links,
  };
}

/** Files inside toolchain folders that hold credentials (a crates.io token): hidden even so. */
export const TOOLCHAIN_SECRETS = ['credentials', 'credentials.toml', '.credentials.toml'] as const;
