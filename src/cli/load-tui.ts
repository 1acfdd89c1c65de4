/**
 * Loads the TUI, only on a terminal: from the one-file bundle the build makes (scripts/bundle-tui.mjs),
 * or, where there is none (running from source, in tests), from its modules.
 */
import { existsSync } from 'node:fs';

export type TuiModule = typeof import('../tui/tui-entry.js');

/** What `loadTui` did, for tests and the start-up bench. */
export interface TuiLoadInfo {
  from: 'bundle' | 'modules';
}

let lastLoad: TuiLoadInfo | undefined;

/** How the TUI was last loaded in this process. */
export const tuiLoadInfo = (): TuiLoadInfo | undefined => lastLoad;

// A variable, so TypeScript does not look for a file that only the build creates.
const BUNDLE = '../tui/tui-entry.bundle.js';

/**
 * The bundle carries React's production build (chosen at build time), so nothing here touches
 * `process.env`: setting NODE_ENV would leak into every tool command and agent shell of the run.
 *
 * Ink's development mode (DEV=true) connects to React DevTools and reads Ink's own package.json beside
 * its modules, which the bundle has not got: with it the TUI runs from the modules, as Ink ships them.
 */
export async function loadTui(): Promise<TuiModule> {
  const bundle = new URL(BUNDLE, import.meta.url);
  if (process.env['DEV'] !== 'true' && existsSync(bundle)) {
    lastLoad = { from: 'bundle' };
    return (await import(bundle.href)) as TuiModule;
  }
  lastLoad = { from: 'modules' };
  return import('../tui/tui-entry.js');
}
