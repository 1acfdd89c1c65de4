/**
 * Everything the CLI takes from the TUI, in one module: the build bundles it with Ink and React into
 * `dist/tui/tui-entry.bundle.js` (scripts/bundle-tui.mjs), which `cli/load-tui.ts` loads on a terminal.
 */
export { type AttachOptions, attachTui } from './start-attach-tui.js';
export { type RunTui, type RunTuiOptions, startRunTui } from './start-run-tui.js';
