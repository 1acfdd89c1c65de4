// Bundles the TUI (dist/tui/tui-entry.js) with Ink, React and Yoga into one ES module,
// dist/tui/tui-entry.bundle.js, which the CLI imports on a terminal (src/cli/load-tui.ts).
//
// Why: loaded module by module, Ink's tree (React's reconciler, Yoga, ~100 files, CommonJS ones parsed
// twice by Node's ESM loader) cost ~600 ms at start-up; one minified file with React's production build
// loads in a fraction of that (bench/tui-startup.mjs). The dependencies go in as they are published
// (scripts/tui-bundle-options.mjs); our own modules outside dist/tui/ stay external, so the TUI shares
// them (errors, the compiler, the answer channel) with the rest of the CLI.
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { tuiBundleOptions } from './tui-bundle-options.mjs';

const tuiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'tui');

// Outputs of earlier builds go: this bundle's chunks, and the CommonJS bundle and its V8 code caches.
for (const name of readdirSync(tuiDir)) {
  if (/^tui-(entry\.bundle\.|chunk-)/.test(name)) rmSync(path.join(tuiDir, name));
}

// TUI_BUNDLE_MINIFY=0 keeps names readable in a CPU profile (bench/README.md).
await build(tuiBundleOptions(tuiDir, { minify: process.env.TUI_BUNDLE_MINIFY !== '0' }));
