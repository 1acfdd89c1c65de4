import { readFileSync } from 'node:fs';

/**
 * The version from package.json, read on first use from the file two levels up (works from both
 * src/cli and dist/cli) so start-up needs neither a JSON import nor a bundler; every run's manifest
 * asks for it, so it is read once per process.
 */
let cached: string | undefined;

export function packageVersion(): string {
  cached ??= readPackageVersion();
  return cached;
}

function readPackageVersion(): string {
  try {
    const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && 'version' in parsed) {
      const { version } = parsed as { version: unknown };
      if (typeof version === 'string') return version;
    }
  } catch {
    // A broken install still answers --version rather than crashing.
  }
  return 'unknown';
}
