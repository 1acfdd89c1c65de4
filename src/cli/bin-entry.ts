/**
 * The entry of the CLI's bundle (scripts/bundle-cli.mjs), which `bin/attractor.js` runs: the command
 * line, and the TUI's loader as the bundle holds it, for the tests and benchmarks that load the TUI the
 * way a run on a terminal does.
 */
export { loadTui } from './load-tui.js';
export { main } from './main.js';
