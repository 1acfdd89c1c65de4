/**
 * Loads the TUI, only on a terminal: Ink and React are costly to load, and a run without a terminal
 * never needs them. In the CLI's bundle (scripts/bundle-cli.mjs) this import is a chunk of its own, with
 * Ink, React's production build and Yoga in it; run from the modules (tests, `DEV=true`) it loads them
 * module by module.
 */
export type TuiModule = typeof import('../tui/tui-entry.js');

export function loadTui(): Promise<TuiModule> {
  return import('../tui/tui-entry.js');
}
