// Bundles the CLI (dist/cli/bin-entry.js) with its dependencies into dist/bin/: attractor.js and the
// chunks its lazy imports load. bin/attractor.js runs it.
//
// Why: loaded module by module, a command reads ~360 files (a third of them zod's) before it does
// anything, and Node 20 has no compile cache for ES modules; one bundle with a few chunks starts a dry
// run in about two thirds of the CPU time (bench/startup.mjs,
// docs/decisions/0073-the-cli-runs-from-one-bundle.md).
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { cliBundleOptions } from './cli-bundle-options.mjs';

const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

// Chunks are named by content hash: an earlier build's would stay beside the new ones.
rmSync(path.join(distDir, 'bin'), { recursive: true, force: true });
await build(cliBundleOptions(distDir));
