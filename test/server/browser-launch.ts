import { existsSync } from 'node:fs';
import type { LaunchOptions } from 'playwright-core';

/**
 * The browser the tests drive: the one CHROMIUM_PATH names, else Debian's chromium-headless-shell (the
 * build Playwright itself uses for headless runs: the same Blink and V8 without the browser's UI, at
 * half the CPU of the web view test), else Debian's chromium (docs/decisions/0022-scheduling-tests-run-on-fake-timers.md).
 */
export const CHROMIUM =
  process.env['CHROMIUM_PATH'] ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => existsSync(file)) ??
  '/usr/bin/chromium';
// CI installs Debian's chromium-headless-shell and sets ATTRACTOR_BROWSER_TESTS=required, so there a browser
// test cannot pass by not running; a developer machine without a browser runs the rest of the suite.
export const BROWSER_REQUIRED = process.env['ATTRACTOR_BROWSER_TESTS'] === 'required';
export const BROWSER_AVAILABLE = existsSync(CHROMIUM);

export const LAUNCH: LaunchOptions = {
  executablePath: CHROMIUM,
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
