/**
 * Loads the TUI, only on a terminal: from the one-file bundle the build makes (scripts/bundle-tui.mjs),
 * or, where there is none (running from source, in tests), from its modules.
 */
export type TuiModule = typeof import('../tui/tui-entry.js');

// A variable, so TypeScript does not look for a file that only the build creates.
const BUNDLE = '../tui/tui-entry.bundle.js';

export async function loadTui(): Promise<TuiModule> {
  // React's development build costs several times the CPU per frame; a user's terminal gets production.
  process.env['NODE_ENV'] ??= 'production';
  const bundleUrl = new URL(BUNDLE, import.meta.url);
  try {
    return (await import(bundleUrl.href)) as TuiModule;
  } catch (error) {
    if (!isMissing(error, bundleUrl)) throw error;
    return import('../tui/tui-entry.js');
  }
}

function isMissing(error: unknown, url: URL): boolean {
  const { code, url: missing } = (error ?? {}) as { code?: unknown; url?: unknown };
  return code === 'ERR_MODULE_NOT_FOUND' && (missing === undefined || missing === url.href);
}
