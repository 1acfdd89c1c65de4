#!/usr/bin/env node
// Thin launcher: the CLI runs from its bundle, dist/bin/attractor.js (built by `npm ci` through
// `prepare`; scripts/bundle-cli.mjs), or from its modules in dist/ when the bundle is not there (a
// `tsc`-only build) or DEV=true: Ink's development mode reads Ink's own package.json beside its modules
// and connects to React DevTools, which the bundle leaves out.
// A closed stdout (`attractor … | head`) is handled by the CLI's io (cli-io.ts): printing stops, and a
// run in progress is interrupted cleanly (node cancelled, checkpoint written, lock released).
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/bin/attractor.js', import.meta.url);
const entry =
  process.env.DEV !== 'true' && existsSync(bundle)
    ? bundle.href
    : new URL('../dist/cli/main.js', import.meta.url).href;

import(entry)
  .then((m) => m.main(process.argv.slice(2)))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`attractor: internal error: ${error?.message ?? error}\n`);
      process.exitCode = 70;
    },
  );
