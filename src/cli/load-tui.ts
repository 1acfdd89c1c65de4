/**
 * Loads the TUI, only on a terminal: from the one-file bundle the build makes (scripts/bundle-tui.mjs),
 * or, where there is none (running from source, in tests), from its modules.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { canWriteCodeCache, codeCachePath, readCodeCache, writeCodeCache } from './tui-code-cache.js';

export type TuiModule = typeof import('../tui/tui-entry.js');

/** What `loadTui` did, for tests and the start-up bench. */
export interface TuiLoadInfo {
  from: 'bundle' | 'modules';
  /** A code cache was given to V8 and accepted. */
  cacheUsed: boolean;
  cacheFile?: string;
}

let lastLoad: TuiLoadInfo | undefined;

/** How the TUI was last loaded in this process. */
export const tuiLoadInfo = (): TuiLoadInfo | undefined => lastLoad;

// A variable, so TypeScript does not look for a file that only the build creates.
const BUNDLE = '../tui/tui-entry.bundle.cjs';

/**
 * The bundle carries React's production build (chosen at build time), so nothing here touches
 * `process.env`: setting NODE_ENV would leak into every tool command and agent shell of the run.
 */
export async function loadTui(): Promise<TuiModule> {
  const bundleUrl = new URL(BUNDLE, import.meta.url);
  const file = fileURLToPath(bundleUrl);
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    lastLoad = { from: 'modules', cacheUsed: false };
    return import('../tui/tui-entry.js');
  }
  return runBundle(source, file, bundleUrl);
}

type BundleExports = TuiModule & { yogaReady: Promise<void> };

/**
 * Runs the bundle as a script through vm.Script, with V8's code cache when there is one: compiling
 * ~400 kB and the functions the first frame calls is a large part of the TUI's start-up. Without a cache
 * (first run after a build, a new Node), the cache is written when the process is about to exit, so it
 * holds the functions this run compiled, not only the top level.
 */
async function runBundle(source: string, file: string, bundleUrl: URL): Promise<TuiModule> {
  // Our modules the bundle shares with the CLI (errors, the compiler, the answer channel) are ES modules,
  // mostly loaded already; the script's require() hands out their namespaces.
  const ours = [
    ...new Set(Array.from(source.matchAll(/require\("(\.\.?\/[^"]+)"\)/g), (m) => m[1] as string)),
  ];
  const modules = new Map(
    await Promise.all(ours.map(async (spec) => [spec, await import(new URL(spec, bundleUrl).href)] as const)),
  );
  const nodeRequire = createRequire(file);
  const bundleRequire = (spec: string): unknown => modules.get(spec) ?? nodeRequire(spec);

  const cacheFile = codeCachePath(file, source);
  const cachedData = readCodeCache(cacheFile);
  const script = new vm.Script(`(function (exports, require, module, __bundleUrl) {\n${source}\n})`, {
    filename: file,
    lineOffset: -1,
    ...(cachedData ? { cachedData } : {}),
  });
  const cacheUsed = cachedData !== undefined && !script.cachedDataRejected;
  if (!cacheUsed && canWriteCodeCache(cacheFile))
    process.once('beforeExit', () => writeCodeCache(cacheFile, script.createCachedData()));
  lastLoad = { from: 'bundle', cacheUsed, cacheFile };

  const module = { exports: {} as BundleExports };
  script.runInThisContext()(module.exports, bundleRequire, module, bundleUrl.href);
  await module.exports.yogaReady;
  return module.exports;
}
