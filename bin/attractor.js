#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` through `prepare`).
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
// A closed pipe (`attractor run ... --json | head`) is the reader saying "enough", not an error.
process.stdout.on('error', (error) => {
  if (error?.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});
