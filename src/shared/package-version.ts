import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from './package-root.js';

/**
 * The version from the package's package.json, read on first use (start-up needs no JSON import);
 * every run's manifest asks for it, so it is read once per process.
 */
let cached: string | undefined;

export function packageVersion(): string {
  cached ??= readPackageVersion();
  return cached;
}

function readPackageVersion(): string {
  try {
    const text = readFileSync(path.join(packageRoot(), 'package.json'), 'utf8');
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
