// The web view's weight and first load: the bundle's size as built (dist/web) and as sent gzipped, and
// the time from navigation to a rendered run list in Debian's Chromium against `attractor serve` on
// 127.0.0.1 (a fresh browser context each round, so nothing is cached). Needs /usr/bin/chromium (or
// CHROMIUM_PATH) and a built dist/ (`npm run bench` builds).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(process.env.ROUNDS ?? 7);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

for (const file of ['app.js', 'app.css']) {
  const bytes = readFileSync(path.join(root, 'dist', 'web', file));
  console.log(`${file}: ${kb(bytes.length)} minified, ${kb(gzipSync(bytes, { level: 9 }).length)} gzipped`);
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'attractor-web-bench-'));
const server = spawn(
  process.execPath,
  [path.join(root, 'bin', 'attractor.js'), 'serve', '--port', '0', '--data-dir', dataDir],
  { stdio: ['ignore', 'inherit', 'pipe'] },
);
const url = await new Promise((resolve, reject) => {
  let out = '';
  // It says where it listens on stderr.
  server.stderr.on('data', (chunk) => {
    out += chunk;
    const found = out.match(/http:\/\/127\.0\.0\.1:\d+/);
    if (found) resolve(found[0]);
  });
  server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
const times = [];
try {
  for (let i = 0; i < rounds; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await page.locator('#runs').waitFor();
    // From the navigation's start to the list on screen, as the page measures it.
    times.push(await page.evaluate(() => performance.now()));
    await context.close();
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
times.sort((a, b) => a - b);
console.log(
  `first load to a rendered run list, ${rounds} rounds: ${times.map((t) => t.toFixed(0)).join(', ')} ms (median ${times[Math.floor(rounds / 2)].toFixed(0)} ms)`,
);
