import { existsSync } from 'node:fs';
import type { LaunchOptions } from 'playwright-core';

/** Debian's Chromium, or another one named by CHROMIUM_PATH. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
// CI installs Debian's chromium and sets ATTRACTOR_BROWSER_TESTS=required, so there a browser test cannot
// pass by not running; a developer machine without a browser runs the rest of the suite.
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
