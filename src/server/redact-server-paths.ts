import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServerOptions } from './server-options.js';

/** A folder of the server's and what an error shows instead of it. */
type Root = { dir: string; shown: string };

/**
 * Rewrites the server's own folders out of an error body: a name inside an `--allow-dir` folder becomes
 * the name relative to it (what a client gives as `dot_path`), the data directory `<data-dir>`, the
 * `--allow-workdir` folders `<allow-workdir>`, the folder the server was started in `<server-dir>`,
 * the home folder `~`. A client learns what went wrong, not how the server's disk is laid out.
 */
export function serverPathRedactor(options: Pick<ServerOptions, 'dataDir' | 'allowDirs' | 'allowWorkdirs'>) {
  const roots = [
    ...options.allowDirs.map((dir) => ({ dir, shown: '' })),
    ...options.allowWorkdirs.map((dir) => ({ dir, shown: '<allow-workdir>' })),
    { dir: options.dataDir, shown: '<data-dir>' },
    { dir: process.cwd(), shown: '<server-dir>' },
    { dir: os.homedir(), shown: '~' },
  ]
    .flatMap(withRealPath)
    // The longest first, so a folder inside another is named by the closer one.
    .sort((a, b) => b.dir.length - a.dir.length);
  const redact = (text: string): string => roots.reduce((out, root) => replaceRoot(out, root), text);
  return (body: unknown): unknown => mapStrings(body, redact);
}

function withRealPath(root: Root): Root[] {
  const dir = path.resolve(root.dir);
  let real = dir;
  try {
    real = realpathSync(dir);
  } catch {
    // Not there (yet): only its name as given can appear.
  }
  return real === dir
    ? [{ ...root, dir }]
    : [
        { ...root, dir },
        { ...root, dir: real },
      ];
}

/** `root.dir` as a whole path (`/srv/data`, `/srv/data/x`, not `/srv/data2`). */
function replaceRoot(text: string, root: Root): string {
  if (root.dir === path.sep) return text;
  const escaped = root.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`${escaped}(?:(/)|(?=$|[^\\w.-]))`, 'g'), (_whole, slash?: string) =>
    slash && root.shown === '' ? '' : `${root.shown || '.'}${slash ?? ''}`,
  );
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, map)]));
  return value;
}
