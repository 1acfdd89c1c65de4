/**
 * Everything the CLI takes from the TUI, in one module, which `cli/load-tui.ts` imports on a terminal;
 * in the CLI's bundle it and Ink, React and Yoga are one chunk (scripts/bundle-cli.mjs).
 */
export { type AttachOptions, attachTui } from './start-attach-tui.js';
export { type RunTui, type RunTuiOptions, startRunTui } from './start-run-tui.js';
