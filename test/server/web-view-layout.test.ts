import fs from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/shared/package-root.js';
import { ensureDist } from '../helpers/ensure-dist.js';
import { seriousAxeViolations } from './axe-check.js';
import { BROWSER_AVAILABLE, BROWSER_REQUIRED, CHROMIUM, LAUNCH } from './browser-launch.js';
import { closeServers, GATE_PIPELINE, type TestServer, testServer, waitFor } from './server-fixtures.js';

// The run page as people look at it: at a desktop's and a phone's width, nothing clipped,
// the current node on screen, the gate answered by its key, every page free of serious axe-core
// violations. Screenshots go to test-artifacts/web/ (gitignored), to look at.
beforeAll(ensureDist, 180_000);
afterEach(closeServers);
const SHOTS = path.join(packageRoot(), 'test-artifacts', 'web');

const WIDTHS = [
  { name: 'desktop', width: 1400, height: 1000 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** What lies outside the window across: the page scrolls sideways, or a control is cut off. */
async function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1)
      out.push(`the page is ${document.documentElement.scrollWidth} px wide in a ${width} px window`);
    const shown = 'button, a, h1, h2, .badge, td, th, input, textarea, select, dd, .timeline-row';
    for (const el of Array.from(document.querySelectorAll<HTMLElement>(shown))) {
      // The drawing's nodes are cut by its panel on purpose (it pans); hidden ones take no room.
      if (el.closest('.graph') || el.getClientRects().length === 0) continue;
      const r = el.getBoundingClientRect();
      if (r.left < -1 || r.right > width + 1)
        out.push(
          `${el.tagName.toLowerCase()}#${el.id} "${(el.textContent ?? '').slice(0, 30)}" ${r.left}–${r.right}`,
        );
    }
    return out;
  });
}

/** The node's box lies inside the graph's panel and inside the window. */
async function nodeInView(page: Page, node: string): Promise<{ inPanel: boolean; inWindow: boolean }> {
  return page.evaluate((id) => {
    const g = document.querySelector(`#graph g.node[data-node="${id}"]`);
    const panel = document.querySelector('#graph');
    if (!g || !panel) return { inPanel: false, inWindow: false };
    const r = g.getBoundingClientRect();
    const p = panel.getBoundingClientRect();
    const inside = (o: { left: number; top: number; right: number; bottom: number }) =>
      r.left >= o.left - 1 && r.top >= o.top - 1 && r.right <= o.right + 1 && r.bottom <= o.bottom + 1;
    return {
      inPanel: inside(p),
      inWindow: inside({ left: 0, top: 0, right: innerWidth, bottom: innerHeight }),
    };
  }, node);
}

async function inWindow(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).first().boundingBox();
  const size = page.viewportSize();
  if (!box || !size) return false;
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height;
}

async function pendingQuestion(server: TestServer, id: string): Promise<{ id: string }> {
  return waitFor(async () => (await server.json('GET', `/pipelines/${id}/questions`)).body[0], 'a question');
}

describe.runIf(BROWSER_AVAILABLE || BROWSER_REQUIRED)('the run page in Chromium: layout, keys, axe', () => {
  let browser: Browser;
  beforeAll(async () => {
    expect(BROWSER_AVAILABLE, `no browser at ${CHROMIUM}`).toBe(true);
    browser = await chromium.launch(LAUNCH);
    fs.mkdirSync(SHOTS, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const context of browser?.contexts() ?? []) await context.close();
  });

  it('at 1400 and 390 px: a run at its gate, the list and the start form fit, the gate is in view, no serious axe violation; the [K] key answers and the status line confirms', async () => {
    const server = await testServer();
    const { body } = await server.json('POST', '/pipelines', { dot_source: GATE_PIPELINE, dry_run: true });
    await pendingQuestion(server, body.id);
    for (const size of WIDTHS) {
      const page = await browser.newPage({ viewport: { width: size.width, height: size.height } });
      await page.goto(`${server.url}/#/runs/${body.id}`);
      await page.locator('#gate', { hasText: 'Ship it?' }).waitFor();
      await page.locator('#graph g.node[data-node="review"][data-status="waiting"]').waitFor();
      // The gate is announced in the status line, a live region.
      await page.locator('#run-announce[role="status"]', { hasText: 'review asks: Ship it?' }).waitFor();
      // The gate's node is named by its label and status, not by its colour alone.
      expect(await page.locator('#graph g.node[data-node="review"]').getAttribute('aria-label')).toBe(
        'Ship it?: waiting for you',
      );
      expect(await clipped(page), size.name).toEqual([]);
      for (const control of ['#resume', '#cancel', '#gate button.option']) {
        expect(await inWindow(page, control), `${control} at ${size.name}`).toBe(true);
      }
      // The current node is inside the graph's panel; on a phone, once the graph is scrolled to.
      await page.locator('#graph').scrollIntoViewIfNeeded();
      expect(await nodeInView(page, 'review'), size.name).toEqual({ inPanel: true, inWindow: true });
      expect(await seriousAxeViolations(page), `run page, ${size.name}`).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `run-at-gate-${size.name}.png`), fullPage: true });

      await page.goto(`${server.url}/#/`);
      await page.locator(`tr.run[data-id="${body.id}"] .run-id`, { hasText: body.id }).waitFor();
      expect(await clipped(page), `list, ${size.name}`).toEqual([]);
      expect(await seriousAxeViolations(page), `run list, ${size.name}`).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `run-list-${size.name}.png`), fullPage: true });
      // The tab says a run waits for you.
      await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('(1) run waits for you · Attractor');

      await page.goto(`${server.url}/#/new`);
      await page.locator('#dot').waitFor();
      expect(await clipped(page), `start form, ${size.name}`).toEqual([]);
      expect(await seriousAxeViolations(page), `start form, ${size.name}`).toEqual([]);
      await page.close();
    }

    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${server.url}/#/runs/${body.id}`);
    await page.locator('#gate', { hasText: 'Ship it?' }).waitFor();
    await page.keyboard.press('r');
    await page.locator('#run-announce', { hasText: 'Answered “[R] Rework” at review.' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('run-announce');
    await page.locator('#run-status', { hasText: 'completed' }).waitFor({ timeout: 15_000 });
    // A finished run is polled no more (its page polled every two seconds while it moved).
    const polled: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith(`/pipelines/${body.id}`)) polled.push(r.url());
    });
    await page.waitForTimeout(2500);
    expect(polled).toEqual([]);
    // The edges the run took are marked, the one it did not take is not; each node says its visits.
    await page.locator('#graph g.edge.taken[data-edge="review->rework"]').waitFor();
    expect(await page.locator('#graph g.edge.taken[data-edge="review->ship"]').count()).toBe(0);
    expect(await page.locator('#graph g.node[data-node="rework"]').getAttribute('data-visits')).toBe('1');
    expect(await page.locator('#graph g.node[data-node="ship"]').getAttribute('aria-label')).toBe(
      'ship: not reached',
    );
    // Nodes in layout order by the arrow keys; Enter opens the node's panel, Fork named as shown.
    await page.locator('#graph g.node[data-node="start"]').focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-node'))).toBe('plan');
    await page.keyboard.press('Enter');
    await page.locator('#node-title', { hasText: 'plan' }).waitFor();
    expect(await page.getByRole('button', { name: 'Fork from plan' }).isEnabled()).toBe(true);
    expect(await seriousAxeViolations(page), 'run page with a node open').toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'run-completed-desktop.png'), fullPage: true });
  }, 120_000);

  it('a run cancelled at its gate stops its clock, says so, and resumes from the page; a failed run resumes too', async () => {
    const server = await testServer();
    const { body } = await server.json('POST', '/pipelines', { dot_source: GATE_PIPELINE, dry_run: true });
    await pendingQuestion(server, body.id);
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${server.url}/#/runs/${body.id}`);
    await page.locator('#gate').waitFor();
    await page.locator('#cancel').click();
    await page.locator('#run-status', { hasText: 'cancelled' }).waitFor();
    await page.locator('#graph g.node[data-node="review"][data-status="cancelled"]').waitFor();
    const bar = page.locator('#timeline li[data-node="review"] .timeline-bar');
    await page.locator('#timeline li[data-node="review"][data-status="cancelled"]').waitFor();
    const length = await bar.getAttribute('data-length-ms');
    await page.waitForTimeout(1200);
    expect(await bar.getAttribute('data-length-ms')).toBe(length);
    // Resume is offered exactly as the server takes it: a cancelled run goes on from where it stopped.
    await page.locator('#resume:not([disabled])').click();
    await page.locator('#gate', { hasText: 'Ship it?' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('#cancel').isEnabled()).toBe(true);
    expect(await page.locator('#resume').isEnabled()).toBe(false);

    const failing = await server.json('POST', '/pipelines', {
      dot_source: GATE_PIPELINE,
      scenario: {
        nodes: { plan: [{ outcome: 'fail', failure_reason: 'the plan is wrong' }, { outcome: 'success' }] },
      },
    });
    await page.goto(`${server.url}/#/runs/${failing.body.id}`);
    await page.locator('#run-status', { hasText: 'failed' }).waitFor({ timeout: 15_000 });
    // The server takes it (202) and the run starts again at the node that failed (scripted to fail again).
    const accepted = page.waitForResponse((r) => r.url().endsWith('/resume'));
    await page.locator('#resume:not([disabled])').click();
    expect((await accepted).status()).toBe(202);
    expect(await page.locator('.actions .error').count()).toBe(0);
  }, 90_000);

  it('a 200-node run: the page follows its current node, and choosing a node brings its panel into view', async () => {
    const ids = Array.from({ length: 198 }, (_, i) => `step_${i + 1}`);
    const dot = `digraph long {
      start [shape=Mdiamond]
      exit [shape=Msquare]
      ${ids.map((id) => `${id} [prompt="Do ${id}"]`).join('\n')}
      start -> ${ids.join(' -> ')} -> exit
    }`;
    const server = await testServer();
    const { body } = await server.json('POST', '/pipelines', { dot_source: dot, dry_run: true });
    await waitFor(
      async () => {
        const run = (await server.json('GET', `/pipelines/${body.id}`)).body;
        return run.status === 'completed' ? run : undefined;
      },
      'the long run to end',
      60_000,
    );
    for (const size of WIDTHS) {
      const page = await browser.newPage({ viewport: { width: size.width, height: size.height } });
      await page.goto(`${server.url}/#/runs/${body.id}`);
      await page.locator('#graph g.node[data-node="exit"][data-status="success"]').waitFor();
      // Too tall to fit readably: the view is a readable part of it around the node the run is at.
      await page.locator('#graph').scrollIntoViewIfNeeded();
      expect(await nodeInView(page, 'exit'), size.name).toEqual({ inPanel: true, inWindow: true });
      expect(await clipped(page), size.name).toEqual([]);
      await page.locator('#timeline li[data-node="step_150"] button').click();
      await page.locator('#node-title', { hasText: 'step_150' }).waitFor();
      await expect.poll(() => inWindow(page, '#node-title'), { timeout: 3000 }).toBe(true);
      await page.screenshot({ path: path.join(SHOTS, `long-run-${size.name}.png`) });
      // From the graph by keyboard: the next node in layout order, and its panel in view.
      await page.locator('#graph g.node[data-node="exit"]').focus();
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Enter');
      await page.locator('#node-title', { hasText: 'step_198' }).waitFor();
      await expect.poll(() => inWindow(page, '#node-title'), { timeout: 3000 }).toBe(true);
      expect(await seriousAxeViolations(page), `long run, ${size.name}`).toEqual([]);
      await page.close();
    }
  }, 120_000);

  it('the sign-in page has no serious axe violation; signed in, the top bar says who and offers sign-out, by keyboard too', async () => {
    const server = await testServer({ token: 'tok-axe' });
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(server.url);
    await page.locator('#signin').waitFor({ state: 'visible' });
    expect(await clipped(page)).toEqual([]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    // The token field has the focus: typed and sent without the mouse.
    await page.keyboard.type('tok-axe');
    await page.keyboard.press('Enter');
    await page.locator('#whoami', { hasText: "Signed in as the server's token" }).waitFor();
    expect(await clipped(page), 'top bar, signed in').toEqual([]);
    expect(await inWindow(page, '#signout')).toBe(true);
    expect(await seriousAxeViolations(page), 'run list, signed in').toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'signed-in-phone.png') });
    await page.locator('#signout').focus();
    await page.keyboard.press('Enter');
    await page.locator('#signin-error', { hasText: 'You are signed out.' }).waitFor();
    expect(await page.evaluate('sessionStorage.getItem("attractor.token")')).toBeNull();
  }, 60_000);
});
