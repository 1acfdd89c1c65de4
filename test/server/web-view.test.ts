import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServers, GATE_PIPELINE, testServer } from './server-fixtures.js';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
// CI installs Debian's chromium and sets ATTRACTOR_BROWSER_TESTS=required, so there this cannot pass by
// not running; a developer machine without a browser runs the rest of the suite.
const required = process.env['ATTRACTOR_BROWSER_TESTS'] === 'required';
const available = existsSync(CHROMIUM);

afterEach(closeServers);

const LAUNCH = {
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

describe.runIf(available || required)('the web view in a real browser', () => {
  it('starts a dry run, colours the running gate, answers it with a click and shows the run completed', async () => {
    expect(available, `no browser at ${CHROMIUM}`).toBe(true);
    const server = await testServer();
    const browser = await chromium.launch(LAUNCH);
    try {
      const page = await browser.newPage();
      await page.goto(server.url);
      await page.fill('#dot', GATE_PIPELINE);
      await page.click('#start');
      // The gate waits: its node is coloured "waiting" in the live SVG and its question has buttons.
      const gate = page.locator('#graph g.node[data-status="waiting"] title');
      await gate.waitFor({ state: 'attached', timeout: 15_000 });
      expect(await gate.textContent()).toBe('review');
      expect(await page.locator('#graph g.node[data-status="success"]').count()).toBeGreaterThan(0);
      await page.locator('#questions button', { hasText: '[R] Rework' }).click();
      await page.locator('#run-status', { hasText: 'completed' }).waitFor({ timeout: 15_000 });
      expect(
        await page.locator('#graph g.node[data-status="success"] title', { hasText: 'rework' }).count(),
      ).toBe(1);
      expect(await page.locator('#log').textContent()).toContain('pipeline.finalize');
      await page.locator('#graph g.node', { hasText: 'plan' }).click();
      await page.locator('#node pre').first().waitFor();
      expect(await page.locator('#node').textContent()).toContain('Plan Ship a thing');
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('on a server with a token: the page asks for it, refuses a wrong one, then runs a pipeline; #token= signs in too', async () => {
    expect(available, `no browser at ${CHROMIUM}`).toBe(true);
    const server = await testServer({ token: 'tok-7f3a' });
    const browser = await chromium.launch(LAUNCH);
    try {
      const page = await browser.newPage();
      const blocked: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
      });
      page.on('pageerror', (error) => blocked.push(error.message));
      await page.goto(server.url);
      await page.locator('#signin').waitFor({ state: 'visible' });
      expect(await page.locator('#app-aside').isHidden()).toBe(true);

      await page.fill('#token', 'wrong');
      await page.click('#signin-button');
      await page.locator('#signin-error', { hasText: 'not valid' }).waitFor();
      // A refused token is not kept (the page runs in the browser, where sessionStorage exists).
      expect(await page.evaluate('sessionStorage.getItem("attractor.token")')).toBeNull();

      await page.fill('#token', 'tok-7f3a');
      await page.click('#signin-button');
      await page.locator('#app-aside').waitFor({ state: 'visible' });
      await page.fill('#dot', GATE_PIPELINE);
      await page.click('#start');
      // The run view works: the live graph over the token-protected event stream, a gate answered by click.
      const gate = page.locator('#graph g.node[data-status="waiting"] title');
      await gate.waitFor({ state: 'attached', timeout: 15_000 });
      expect(await gate.textContent()).toBe('review');
      await page.locator('#questions button', { hasText: '[S] Ship' }).click();
      await page.locator('#run-status', { hasText: 'completed' }).waitFor({ timeout: 15_000 });
      expect(await page.locator('#log').textContent()).toContain('pipeline.finalize');
      await page.locator('#graph g.node', { hasText: 'plan' }).click();
      await page.locator('#node pre').first().waitFor();
      expect(await page.locator('#node').textContent()).toContain('Plan Ship a thing');

      // A link with the token in its fragment signs a new tab in and leaves no token in the address bar.
      const linked = await browser.newPage();
      await linked.goto(`${server.url}/#token=tok-7f3a`);
      await linked.locator('#runs li.run').first().waitFor();
      expect(linked.url()).not.toContain('tok-7f3a');
      expect(await linked.locator('#signin').isHidden()).toBe(true);
      expect(blocked).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 90_000);
});
