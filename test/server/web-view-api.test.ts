import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureDist } from '../helpers/ensure-dist.js';
import { closeServers, GATE_PIPELINE, type TestServer, testServer, waitFor } from './server-fixtures.js';

// The server serves the web bundle from dist/web; a source change since the last build rebuilds it.
beforeAll(ensureDist, 180_000);
afterEach(closeServers);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = (prefix: string): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

const VARS_PIPELINE = `digraph params {
  graph [goal="Build $feature for $env", vars="feature, env=staging"]
  start [shape=Mdiamond]
  build [prompt="Build $feature on $env"]
  exit [shape=Msquare]
  start -> build -> exit
}
`;

const pending = (server: TestServer, id: string) =>
  waitFor(async () => {
    const { body } = await server.json('GET', `/pipelines/${id}/questions`);
    return body.length > 0 ? body[0] : undefined;
  }, 'a pending question');
const ended = (server: TestServer, id: string) =>
  waitFor(async () => {
    const { body } = await server.json('GET', `/pipelines/${id}`);
    return ['completed', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
  }, 'the run to end');

describe('what the web view reads from the server', () => {
  it('a run at a gate is listed as waiting, with its current node and start; ?status= filters on it', async () => {
    const server = await testServer();
    const gated = (await server.json('POST', '/pipelines', { dot_source: GATE_PIPELINE, dry_run: true }))
      .body;
    const question = await pending(server, gated.id);
    const run = (await server.json('GET', `/pipelines/${gated.id}`)).body;
    expect(run).toMatchObject({ status: 'waiting', current_node: 'review', cost_usd: 0 });
    expect(Date.parse(run.started_at)).not.toBeNaN();
    expect(run.ended_at).toBeUndefined();

    const ids = async (query: string): Promise<string[]> =>
      (await server.json('GET', `/pipelines${query}`)).body.pipelines.map((r: { id: string }) => r.id);
    expect(await ids('?status=waiting')).toEqual([gated.id]);
    expect(await ids('?status=running')).toEqual([]);
    expect(await ids('')).toEqual([gated.id]);

    await server.json('POST', `/pipelines/${gated.id}/questions/${question.id}/answer`, { answer: 'S' });
    const done = await ended(server, gated.id);
    expect(done).toMatchObject({ status: 'completed', current_node: 'exit' });
    expect(Date.parse(done.ended_at)).toBeGreaterThanOrEqual(Date.parse(done.started_at));
    expect(await ids('?status=waiting')).toEqual([]);
    expect(await ids('?status=completed')).toEqual([gated.id]);
    expect((await server.json('GET', '/pipelines?status=asleep')).status).toBe(400);
  }, 30_000);

  it("a run takes its declared parameters' values; one missing is a 400 before it is queued", async () => {
    const server = await testServer();
    const missing = await server.json('POST', '/pipelines', { dot_source: VARS_PIPELINE, dry_run: true });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/feature/);
    expect((await server.json('GET', '/pipelines')).body.pipelines).toEqual([]);

    const created = await server.json('POST', '/pipelines', {
      dot_source: VARS_PIPELINE,
      dry_run: true,
      vars: { feature: 'login' },
    });
    expect(created.status).toBe(201);
    expect(created.body.goal).toBe('Build login for staging');
    await ended(server, created.body.id);
    const node = (await server.json('GET', `/pipelines/${created.body.id}/nodes/build`)).body;
    expect(node.prompt).toContain('Build login on staging');
    // The drawn graph's title is the run's goal with the values in it.
    const svg = await fetch(`${server.url}/pipelines/${created.body.id}/graph?format=svg`).then((r) =>
      r.text(),
    );
    expect(svg).toContain('Build login for staging');
    expect(svg).not.toContain('$feature');
  }, 30_000);

  it('lists the .dot files of the allowed folders and describes a pipeline: name, goal, parameters', async () => {
    const allowed = tempDir('attractor-allowed-');
    fs.mkdirSync(path.join(allowed, 'team'));
    fs.mkdirSync(path.join(allowed, '.hidden'));
    fs.writeFileSync(path.join(allowed, 'params.dot'), VARS_PIPELINE);
    fs.writeFileSync(path.join(allowed, 'team', 'gate.dot'), GATE_PIPELINE);
    fs.writeFileSync(path.join(allowed, '.hidden', 'secret.dot'), GATE_PIPELINE);
    fs.writeFileSync(path.join(allowed, 'notes.txt'), 'not a pipeline');
    const server = await testServer({ allowDirs: [allowed] });
    expect((await server.json('GET', '/pipeline-files')).body).toEqual({
      files: ['params.dot', 'team/gate.dot'],
      truncated: false,
    });
    expect((await server.json('POST', '/describe', { dot_path: 'params.dot' })).body).toEqual({
      name: 'params',
      goal: 'Build $feature for $env',
      vars: [{ name: 'feature' }, { name: 'env', default: 'staging' }],
      errors: [],
    });
    const pasted = await server.json('POST', '/describe', { dot_source: GATE_PIPELINE });
    expect(pasted.body).toMatchObject({ name: 'gate', goal: 'Ship a thing', vars: [] });
    expect((await server.json('POST', '/describe', { dot_source: 'digraph {' })).status).toBe(400);
    expect((await server.json('POST', '/describe', { dot_path: '../x.dot' })).status).toBe(403);
    // Without an allowed folder there is nothing to list.
    const bare = await testServer();
    expect((await bare.json('GET', '/pipeline-files')).body).toEqual({ files: [], truncated: false });
  });

  it("a tool node's output is in its node view", async () => {
    const work = tempDir('attractor-tool-work-');
    const server = await testServer({ allowTools: true }, { realRuns: { workingDir: work, env: {} } });
    const dot = `digraph tools { start [shape=Mdiamond]; say [shape=parallelogram, tool_command="echo hello from the tool; echo oops >&2"]; exit [shape=Msquare]; start -> say -> exit }`;
    const created = await server.json('POST', '/pipelines', { dot_source: dot });
    expect(created.status).toBe(201);
    expect((await ended(server, created.body.id)).status).toBe('completed');
    const node = (await server.json('GET', `/pipelines/${created.body.id}/nodes/say`)).body;
    expect(node.stdout).toBe('hello from the tool\n');
    expect(node.stderr).toBe('oops\n');
  }, 30_000);

  it('says whether it can fork, from the routes it has: the web view enables its fork button on that', async () => {
    const server = await testServer();
    expect((await server.json('GET', '/server-info')).body).toEqual({
      fork: true,
      allow_dirs: false,
      allow_tools: false,
    });
  });

  it('serves the bundled app, its style and icon with their types and nosniff', async () => {
    const server = await testServer();
    for (const [route, type] of [
      ['/web/app.js', 'text/javascript'],
      ['/web/app.css', 'text/css'],
      ['/favicon.svg', 'image/svg+xml'],
    ] as const) {
      const response = await fetch(`${server.url}${route}`);
      expect(response.status, route).toBe(200);
      expect(response.headers.get('content-type'), route).toContain(type);
      expect(response.headers.get('x-content-type-options'), route).toBe('nosniff');
    }
    // Gzipped for a browser that takes it, as it is for one that does not; the same script either way.
    const gzipped = await fetch(`${server.url}/web/app.js`, { headers: { 'accept-encoding': 'gzip' } });
    const plain = await fetch(`${server.url}/web/app.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await gzipped.text()).toBe(await plain.text());
    const api = await fetch(`${server.url}/pipelines`);
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
    const page = await fetch(`${server.url}/`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('revalidates the script and style by ETag (a reload downloads nothing) and compresses drawings', async () => {
    const server = await testServer();
    for (const route of ['/web/app.js', '/web/app.css']) {
      const first = await fetch(`${server.url}${route}`, { headers: { 'accept-encoding': 'br' } });
      const etag = first.headers.get('etag');
      expect(etag, route).toMatch(/^"[\w-]{22}"$/);
      expect(first.headers.get('content-encoding'), route).toBe('br');
      const again = await fetch(`${server.url}${route}`, { headers: { 'if-none-match': etag ?? '' } });
      expect(again.status, route).toBe(304);
      expect(await again.text(), route).toBe('');
      const changed = await fetch(`${server.url}${route}`, { headers: { 'if-none-match': '"other"' } });
      expect(changed.status, route).toBe(200);
    }
    const created = await server.json('POST', '/pipelines', { dot_source: GATE_PIPELINE, dry_run: true });
    const graph = `${server.url}/pipelines/${created.body.id}/graph?format=svg`;
    const [br, gzip, plain] = await Promise.all(
      ['br', 'gzip', 'identity'].map((encoding) =>
        fetch(graph, { headers: { 'accept-encoding': encoding } }),
      ),
    );
    expect(br?.headers.get('content-encoding')).toBe('br');
    expect(gzip?.headers.get('content-encoding')).toBe('gzip');
    expect(plain?.headers.get('content-encoding')).toBeNull();
    // The same drawing each way (its fills follow the run, which moves meanwhile).
    const nodes = (svg = ''): number => svg.split('class="node"').length - 1;
    const drawn = await plain?.text();
    expect(nodes(drawn)).toBe(6);
    expect(nodes(await br?.text())).toBe(6);
    expect(nodes(await gzip?.text())).toBe(6);
  });
});
