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

/**
 * The toolchain folders `env` points to (its `PATH` and the toolchain variables), to be mounted
 * read-only: a `…/bin` entry brings its parent (`~/.cargo/bin` → `~/.cargo`, whose libraries it
 * needs), but never the home folder itself, `/`, or a folder that holds the home folder — the rest of
 * the home folder (`~/.ssh`, `~/.aws`, …) stays out. System folders are left to `SYSTEM_DIRS`.
 */
export function toolchainPaths(
  env: Readonly<Record<string, string | undefined>>,
  extra: readonly string[] = [],
): string[] {
  const home = env['HOME'] && env['HOME'] !== '/' ? path.resolve(env['HOME']) : undefined;
  const acceptable = (candidate: string | undefined): string | undefined => {
    if (!candidate || !path.isAbsolute(candidate)) return undefined;
    const dir = path.resolve(candidate);
    if (dir === '/' || (home && isUnder(dir, home))) return undefined;
    if (SYSTEM_DIRS.some((system) => isUnder(system, dir)) || !existsSync(dir)) return undefined;
    return dir;
  };
  const fromPath = (env['PATH'] ?? '')
    .split(':')
    .map(
      (entry) =>
        (path.basename(entry) === 'bin' ? acceptable(path.dirname(entry)) : undefined) ?? acceptable(entry),
    );
  const found = new Set<string>();
  for (const dir of [
    ...fromPath,
    ...[...TOOLCHAIN_VARIABLES.map((name) => env[name]), ...extra].map(acceptable),
  ]) {
    if (!dir) continue;
    found.add(dir);
    // A link (nvm's `current`) must reach its target too, or it dangles inside.
    const real = acceptable(realpathSync(dir));
    if (real) found.add(real);
  }
  // A folder inside another already listed adds nothing.
  const sorted = [...found].sort();
  return sorted.filter((dir) => !sorted.some((other) => other !== dir && isUnder(other, dir)));
}

/** Files inside toolchain folders that hold credentials (a crates.io token): hidden even so. */
export const TOOLCHAIN_SECRETS = ['credentials', 'credentials.toml', '.credentials.toml'] as const;
