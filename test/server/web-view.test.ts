import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureDist } from '../helpers/ensure-dist.js';
import {
  anthropicStreamReply,
  FAKE_ANTHROPIC_KEY,
  startFakeAnthropicServer,
} from '../helpers/fake-anthropic-server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { BROWSER_AVAILABLE, BROWSER_REQUIRED, CHROMIUM, LAUNCH } from './browser-launch.js';
import { closeServers, GATE_PIPELINE, testServer } from './server-fixtures.js';

// The server serves the web bundle from dist/web; a source change since the last build rebuilds it.
beforeAll(ensureDist, 180_000);
afterEach(closeServers);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

// A real-model pipeline (the coding agent against a local stand-in for Anthropic's API) with a
// parameter and a gate that can send the work back.
const REVIEW_PIPELINE = `digraph review {
  graph [goal="Plan the $feature feature", vars="feature, tone=plain"]
  start [shape=Mdiamond]
  write [prompt="Write a plan for $feature", llm_model="claude-sonnet-4-6"]
  review [shape=hexagon, label="Ship the plan?"]
  exit [shape=Msquare]
  start -> write -> review
  review -> exit [label="[S] Ship"]
  review -> write [label="[R] Rework"]
}
`;
const SAID = 'Here is the plan: first the login form, then the session store.';

/** Captures what the page's Content-Security-Policy blocked and any script error. */
function watchForProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return problems;
}

describe.runIf(BROWSER_AVAILABLE || BROWSER_REQUIRED)('the web view in a real browser', () => {
  // One Chromium for the file (its start is the file's biggest cost); each test's pages live in
  // contexts of their own (`browser.newPage()`), so no storage or cookie passes between tests.
  let browser: Browser;
  beforeAll(async () => {
    expect(BROWSER_AVAILABLE, `no browser at ${CHROMIUM}`).toBe(true);
    browser = await chromium.launch(LAUNCH);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  const closePages = async (): Promise<void> => {
    for (const context of browser?.contexts() ?? []) await context.close();
  };
  afterEach(closePages);

  it('starts a run from the allowed folder with its parameter, colours the graph live, streams the transcript, answers the gate, opens a node; screenshots', async () => {
    expect(BROWSER_AVAILABLE, `no browser at ${CHROMIUM}`).toBe(true);
    // Screenshots to look at: kept in ATTRACTOR_SCREENSHOTS when it names a folder, else removed with the test.
    const kept = process.env['ATTRACTOR_SCREENSHOTS'];
    const out = kept ? path.resolve(kept) : tempDir('attractor-web-view-');
    fs.mkdirSync(out, { recursive: true });
    const pipelines = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-web-pipelines-'));
    // The run works in `work`; a fork restores its files beside it, which --allow-workdir must allow.
    const workParent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-web-work-')));
    const work = path.join(workParent, 'work');
    fs.mkdirSync(work);
    dirs.push(pipelines, workParent);
    fs.writeFileSync(path.join(pipelines, 'review.dot'), REVIEW_PIPELINE);
    const fake = await startFakeAnthropicServer();
    fake.enqueue(
      anthropicStreamReply({
        content: [{ type: 'text', text: SAID }],
        usage: { input_tokens: 120_000, output_tokens: 20_000 },
      }),
    );
    const server = await testServer(
      { allowDirs: [pipelines], allowWorkdirs: [workParent] },
      {
        realRuns: {
          workingDir: work,
          env: { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY, ANTHROPIC_BASE_URL: fake.origin },
        },
      },
    );
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      const problems = watchForProblems(page);
      const started = Date.now();
      await page.goto(server.url);
      await page.locator('#runs').waitFor();
      const firstLoadMs = Date.now() - started;

      // The start form: the allowed folder's pipeline, its declared parameter as a field.
      await page.getByRole('link', { name: 'New run' }).first().click();
      await expect.poll(() => page.locator('#dot-path').inputValue()).toBe('review.dot');
      await page.locator('input[name="var-feature"]').fill('login');
      expect(await page.locator('input[name="var-tone"]').inputValue()).toBe('plain');
      await page.locator('#dry').uncheck();
      await page.screenshot({ path: path.join(out, 'start-form.png'), fullPage: true });
      await page.locator('#start').click();

      // The run page: the node turns green in the live graph, the agent's streamed words appear.
      await page
        .locator('#graph g.node[data-node="write"][data-status="success"]')
        .waitFor({ timeout: 20_000 });
      await page.locator('#transcript', { hasText: SAID }).waitFor();
      const runId = decodeURIComponent(page.url().split('#/runs/')[1] ?? '');
      expect(runId).not.toBe('');
      // The gate asks in place; while it waits, the list says so.
      await page.locator('#gate', { hasText: 'Ship the plan?' }).waitFor({ timeout: 15_000 });
      expect(await page.locator('#graph g.node[data-node="review"]').getAttribute('data-status')).toBe(
        'waiting',
      );
      expect(await page.locator('#gate textarea').count()).toBe(0);
      await page.screenshot({ path: path.join(out, 'run-page-gate.png'), fullPage: true });
      const list = await browser.newPage({ viewport: { width: 1400, height: 700 } });
      await list.goto(server.url);
      const row = list.locator(`tr.run[data-id="${runId}"]`);
      await row.locator('.badge', { hasText: 'waiting for you' }).waitFor();
      expect(await row.textContent()).toContain('review');
      await list.getByRole('button', { name: 'Waiting for you' }).click();
      await expect.poll(() => list.locator('tr.run').count()).toBe(1);
      await list.screenshot({ path: path.join(out, 'run-list.png'), fullPage: true });

      await page.locator('#gate button', { hasText: '[S] Ship' }).click();
      await page.locator('#run-status', { hasText: 'completed' }).waitFor({ timeout: 15_000 });
      await page.locator('#gate').waitFor({ state: 'detached' });
      // The timeline holds each visit; the run's cost is the fake's usage at Sonnet's prices.
      expect(
        await page.locator('#timeline li').evaluateAll((li) => li.map((l) => l.getAttribute('data-node'))),
      ).toEqual(['start', 'write', 'review', 'exit']);
      await expect.poll(() => page.locator('#run-cost').textContent()).toBe('$0.66');

      // A node opened from the graph by keyboard: its prompt with the parameter, response, cost.
      await page.locator('#graph g.node[data-node="write"]').focus();
      await page.keyboard.press('Enter');
      await page.locator('#node-prompt', { hasText: 'Write a plan for login' }).waitFor();
      expect(await page.locator('#node-response').textContent()).toContain(SAID);
      expect(await page.locator('#node-cost').textContent()).toContain('120000 in / 20000 out tokens');
      await page.screenshot({ path: path.join(out, 'run-page.png'), fullPage: true });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: path.join(out, 'run-page-dark.png'), fullPage: true });
      await page.emulateMedia({ colorScheme: 'light' });

      // Fork from the gate's node: a new run, standing where this one entered `review`, asks again.
      await page.locator('#graph g.node[data-node="review"]').focus();
      await page.keyboard.press('Enter');
      await page.locator('#fork').click();
      await page.locator('#fork-start').click();
      await expect.poll(() => decodeURIComponent(page.url().split('#/runs/')[1] ?? '')).not.toBe(runId);
      const forkId = decodeURIComponent(page.url().split('#/runs/')[1] ?? '');
      expect(forkId).not.toBe('');
      await page.locator('#gate', { hasText: 'Ship the plan?' }).waitFor({ timeout: 15_000 });
      // The fork's page names its origin, linked.
      await page.locator('#forked-from', { hasText: `Forked from ${runId} at review` }).waitFor();
      expect(await page.locator('#forked-from a').getAttribute('href')).toBe(
        `#/runs/${encodeURIComponent(runId)}`,
      );
      const forked = (await server.json('GET', `/pipelines/${forkId}`)).body;
      expect(forked.status).toBe('waiting');

      await list.getByRole('button', { name: 'All' }).click();
      await row.locator('.badge', { hasText: 'completed' }).waitFor();
      expect(await row.locator('td').last().textContent()).toBe('$0.66');
      expect(problems).toEqual([]);
      console.log(
        `web view: first load to a rendered list: ${firstLoadMs} ms${kept ? `; screenshots in ${out}` : ''}`,
      );
    } finally {
      await fake.close();
    }
  }, 90_000);

  it("a run told where to work: refused outside --allow-workdir with the server's reason, run inside it", async () => {
    expect(BROWSER_AVAILABLE, `no browser at ${CHROMIUM}`).toBe(true);
    const root = fs.realpathSync(tempDir('attractor-web-workdirs-'));
    const checkout = path.join(root, 'checkout');
    fs.mkdirSync(checkout);
    const outside = fs.realpathSync(tempDir('attractor-web-outside-'));
    const server = await testServer({ allowTools: true, allowWorkdirs: [root] });
    try {
      const page = await browser.newPage();
      const problems = watchForProblems(page);
      await page.goto(server.url);
      await page.locator('#runs').waitFor();
      await page.getByRole('link', { name: 'New run' }).first().click();
      await page
        .locator('#dot')
        .fill(
          'digraph where { start [shape=Mdiamond]; exit [shape=Msquare]; where [shape=parallelogram, tool_command="pwd"]; start -> where -> exit }',
        );
      await page.locator('#described', { hasText: 'where' }).waitFor();
      // A scenario run, so the tool command runs (a dry run runs none).
      await page.locator('#use-scenario').check();
      await page.locator('#scenario').fill('{}');

      await page.locator('#working-dir').fill(outside);
      await page.locator('#start').click();
      await page.locator('#submit-error', { hasText: '--allow-workdir' }).waitFor();
      expect(page.url()).not.toContain('#/runs/');

      await page.locator('#working-dir').fill(checkout);
      await page.locator('#start').click();
      await page.locator('#run-status', { hasText: 'completed' }).waitFor({ timeout: 15_000 });
      const runId = decodeURIComponent(page.url().split('#/runs/')[1] ?? '');
      const { body: run } = await server.json('GET', `/pipelines/${runId}`);
      expect(fs.readFileSync(path.join(run.run_dir, 'where', 'stdout.log'), 'utf8').trim()).toBe(checkout);
      expect(problems).toEqual([]);
    } finally {
      await closePages();
    }
  }, 90_000);

  it('on a server with a token: the page asks for it, refuses a wrong one, then runs a pasted pipeline; #token= signs in too', async () => {
    expect(BROWSER_AVAILABLE, `no browser at ${CHROMIUM}`).toBe(true);
    const server = await testServer({ token: 'tok-7f3a' });
    try {
      const page = await browser.newPage();
      const problems = watchForProblems(page);
      await page.goto(server.url);
      await page.locator('#signin').waitFor({ state: 'visible' });
      expect(await page.locator('#runs').count()).toBe(0);

      await page.fill('#token', 'wrong');
      await page.click('#signin-button');
      await page.locator('#signin-error', { hasText: 'not valid' }).waitFor();
      // A refused token is not kept.
      expect(await page.evaluate('sessionStorage.getItem("attractor.token")')).toBeNull();

      await page.fill('#token', 'tok-7f3a');
      await page.click('#signin-button');
      await page.locator('#runs').waitFor();
      await page.getByRole('link', { name: 'New run' }).first().click();
      await page.locator('#dot').fill(GATE_PIPELINE);
      await page.locator('#described', { hasText: 'gate' }).waitFor();
      await page.locator('#start').click();
      // Over the token-protected event stream: the gate waits, answered by a click.
      await page
        .locator('#graph g.node[data-node="review"][data-status="waiting"]')
        .waitFor({ timeout: 15_000 });
      expect(await page.locator('#graph g.node[data-node="plan"]').getAttribute('data-status')).toBe(
        'success',
      );
      await page.locator('#gate button', { hasText: '[R] Rework' }).click();
      await page.locator('#run-status', { hasText: 'completed' }).waitFor({ timeout: 15_000 });
      await page.locator('#graph g.node[data-node="rework"][data-status="success"]').waitFor();
      await page.locator('#graph g.node[data-node="plan"]').click();
      await page.locator('#node-prompt', { hasText: 'Plan Ship a thing' }).waitFor();

      // A link with the token in its fragment signs a new tab in and leaves no token in the address bar.
      const linked = await browser.newPage();
      await linked.goto(`${server.url}/#token=tok-7f3a`);
      await linked.locator('#runs tr.run').first().waitFor();
      expect(linked.url()).not.toContain('tok-7f3a');
      expect(await linked.locator('#signin').count()).toBe(0);
      // Pasted into a tab where the app already runs, a #token= link changes only the fragment: the
      // token leaves the address bar then too.
      await linked.evaluate('location.hash = "#token=tok-7f3a"');
      await linked.waitForFunction('!location.href.includes("tok-7f3a")');
      await linked.locator('#runs tr.run').first().waitFor();
      expect(await linked.locator('#signin').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await closePages();
    }
  }, 90_000);
});
