import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeServers, type TestServer, testServer, waitFor } from './server-fixtures.js';

afterEach(closeServers);

const SECRET = 'TOP-SECRET-4711';
let top: string;
let allowed: string;
let outside: string;
beforeAll(() => {
  top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-confine-')));
  allowed = path.join(top, 'allowed');
  outside = path.join(top, 'outside');
  fs.mkdirSync(path.join(allowed, 'prompts'), { recursive: true });
  fs.mkdirSync(path.join(allowed, 'folder.dot'));
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.txt'), SECRET);
  fs.writeFileSync(path.join(outside, 'child.dot'), 'digraph c { s [shape=Mdiamond] }');
  fs.writeFileSync(path.join(allowed, 'prompts', 'plan.md'), 'Plan from the allowed folder.');
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(allowed, 'link.md'));
  execFileSync('mkfifo', [path.join(allowed, 'fifo.md')]);
  execFileSync('mkfifo', [path.join(allowed, 'fifo.dot')]);
});
afterAll(() => fs.rmSync(top, { recursive: true, force: true }));

const pipeline = (work: string, extra = '') => `digraph p {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  ${work}
  start -> work -> exit
${extra}}
`;

/** Every read endpoint of a run, concatenated: the secret must appear in none. */
async function everything(server: TestServer, id: string): Promise<string> {
  const routes = [`/pipelines/${id}`, `/pipelines/${id}/graph`, `/pipelines/${id}/context`];
  routes.push(`/pipelines/${id}/checkpoint`, `/pipelines/${id}/nodes/work`, `/pipelines/${id}/questions`);
  const bodies = await Promise.all(routes.map((r) => server.json('GET', r).then((x) => JSON.stringify(x))));
  const svg = await fetch(`${server.url}/pipelines/${id}/graph?format=svg`).then((r) => r.text());
  const events = fs.readFileSync(path.join(server.manager.get(id).run_dir ?? '', 'events.jsonl'), 'utf8');
  return [...bodies, svg, events].join('\n');
}

async function finished(server: TestServer, id: string) {
  return waitFor(async () => {
    const { body } = await server.json('GET', `/pipelines/${id}`);
    return ['completed', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
  }, `run ${id} to end`);
}

describe('a submitted pipeline reads only inside the server’s allowed folders', () => {
  it.each([
    ['climbing out with ..', 'work [prompt="@../outside/secret.txt"]', 'file_not_allowed'],
    ['an absolute path', 'work [prompt="@/etc/hostname"]', 'file_not_allowed'],
    ['a symlink leading out', 'work [prompt="@link.md"]', 'file_not_allowed'],
    ['a label used as the prompt', 'work [label="@../outside/secret.txt"]', 'file_not_allowed'],
    ['a FIFO (refused unopened)', 'work [prompt="@fifo.md"]', 'prompt_file_missing'],
    ['a missing prompt file', 'work [prompt="@prompts/none.md"]', 'prompt_file_missing'],
    [
      'a child pipeline outside',
      'work [shape=house, stack.child_dotfile="../outside/child.dot"]',
      'file_not_allowed',
    ],
  ])(
    'inline: %s is a 400 located in the source, with nothing of the file in it',
    async (_what, work, rule) => {
      const server = await testServer({ allowDirs: [allowed] });
      const refused = await server.json('POST', '/pipelines', { dot_source: pipeline(work), dry_run: true });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('INVALID_PIPELINE');
      const diagnostics = refused.body.error.diagnostics.filter(
        (d: { severity: string }) => d.severity === 'error',
      );
      expect(diagnostics).toEqual([
        expect.objectContaining({
          rule,
          node_id: 'work',
          loc: { file: '<inline>', line: 4, column: expect.any(Number) },
        }),
      ]);
      expect(JSON.stringify(refused.body)).not.toContain(SECRET);
      // Messages name the flag, not the server's folders.
      expect(JSON.stringify(refused.body)).not.toContain(allowed);
      expect((await server.json('GET', '/pipelines')).body.pipelines).toHaveLength(0);
    },
  );

  it('inline sources resolve against the first allowed folder and may read inside it', async () => {
    const server = await testServer({ allowDirs: [allowed] });
    const created = await server.json('POST', '/pipelines', {
      dot_source: pipeline('work [prompt="@prompts/plan.md"]'),
      dry_run: true,
    });
    expect(created.status).toBe(201);
    await finished(server, created.body.id);
    const node = await server.json('GET', `/pipelines/${created.body.id}/nodes/work`);
    expect(node.body.prompt).toContain('Plan from the allowed folder.');
  });

  it("without --allow-dir an inline source names no file at all, not even in the server's working directory", async () => {
    const server = await testServer();
    expect(fs.existsSync(path.join(process.cwd(), 'package.json'))).toBe(true);
    const refused = await server.json('POST', '/pipelines', {
      dot_source: pipeline('work [prompt="@package.json"]'),
      dry_run: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.diagnostics[0]).toMatchObject({ rule: 'file_not_allowed' });
    expect(refused.body.error.diagnostics[0].message).toMatch(/without --allow-dir/);
    expect(JSON.stringify(refused.body)).not.toContain('devDependencies');
  });

  it('a dot_path pipeline is confined the same way', async () => {
    fs.writeFileSync(path.join(allowed, 'reads-out.dot'), pipeline('work [prompt="@../outside/secret.txt"]'));
    const server = await testServer({ allowDirs: [allowed] });
    const refused = await server.json('POST', '/pipelines', { dot_path: 'reads-out.dot', dry_run: true });
    expect(refused.status).toBe(400);
    expect(refused.body.error.diagnostics[0]).toMatchObject({
      rule: 'file_not_allowed',
      // Named as the client named it: the server's folders stay out of its answers.
      loc: { file: 'reads-out.dot', line: 4 },
    });
    expect(JSON.stringify(refused.body)).not.toContain(SECRET);
  });

  it('a prompt swapped for a link out after the run is accepted leaks nowhere', async () => {
    const prompt = path.join(allowed, 'swapped.md');
    fs.writeFileSync(prompt, 'An honest prompt.');
    fs.writeFileSync(path.join(allowed, 'swap.dot'), pipeline('work [prompt="@swapped.md"]'));
    const server = await testServer({ allowDirs: [allowed] });
    const created = await server.json('POST', '/pipelines', { dot_path: 'swap.dot', dry_run: true });
    expect(created.status).toBe(201);
    await finished(server, created.body.id);
    fs.rmSync(prompt);
    fs.symlinkSync(path.join(outside, 'secret.txt'), prompt);
    const seen = await everything(server, created.body.id);
    expect(seen).toContain('An honest prompt.');
    expect(seen).not.toContain(SECRET);
  });

  it('a child pipeline started mid-run reads only inside the same folders', async () => {
    fs.mkdirSync(path.join(allowed, 'kids'), { recursive: true });
    fs.writeFileSync(
      path.join(allowed, 'kids', 'kid.dot'),
      pipeline('work [prompt="@../../outside/secret.txt"]'),
    );
    fs.writeFileSync(
      path.join(allowed, 'boss.dot'),
      pipeline('work [shape=house, stack.child_dotfile="kids/kid.dot", manager.poll_interval="10ms"]'),
    );
    const server = await testServer({ allowDirs: [allowed] });
    const created = await server.json('POST', '/pipelines', { dot_path: 'boss.dot', dry_run: true });
    expect(created.status).toBe(201);
    const done = await finished(server, created.body.id);
    expect(done.status).toBe('failed');
    const seen = await everything(server, created.body.id);
    expect(seen).toMatch(/not allowed/);
    expect(seen).not.toContain(SECRET);
  });
});

describe('inputs that used to hang or crash the server', () => {
  it.each([
    ['a folder', 'folder.dot', 'NOT_A_FILE'],
    ['a FIFO', 'fifo.dot', 'NOT_A_FILE'],
  ])('dot_path naming %s is a 400 and /healthz keeps answering', async (_what, dotPath, code) => {
    const server = await testServer({ allowDirs: [allowed] });
    const started = Date.now();
    const [refused, health] = await Promise.all([
      fetch(`${server.url}/pipelines`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ dot_path: dotPath, dry_run: true }),
        signal: AbortSignal.timeout(5_000),
      }),
      fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(5_000) }),
    ]);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(code);
    expect(health.status).toBe(200);
    expect((await server.json('GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
