#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` through `prepare`).
// A closed stdout (`attractor … | head`) is handled by the CLI's io (cli-io.ts): printing stops, and a
// run in progress is interrupted cleanly (node cancelled, checkpoint written, lock released).
import('../dist/cli/main.js')
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
