import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServers, type TestServer, testServer, waitFor } from './server-fixtures.js';

afterEach(closeServers);

const ROUTED = `digraph routed {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  plan [prompt="Plan"]
  implement [prompt="Implement"]
  check [shape=diamond]
  fast [prompt="Fast"]
  slow [prompt="Slow"]
  start -> plan -> implement -> check
  check -> fast [condition="context.speed=fast"]
  check -> slow
  fast -> exit
  slow -> exit
}
`;

async function finished(server: TestServer, id: string) {
  return waitFor(async () => {
    const { body } = await server.json('GET', `/pipelines/${id}`);
    return ['completed', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
  }, `run ${id} to end`);
}

async function completedRun(server: TestServer): Promise<string> {
  const created = await server.json('POST', '/pipelines', { dot_source: ROUTED, dry_run: true });
  expect(created.status).toBe(201);
  await finished(server, created.body.id);
  return created.body.id;
}

const startedNodes = (runDir: string): string[] =>
  fs
    .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { kind: string; node_id?: string })
    .filter((e) => e.kind === 'node.start')
    .map((e) => String(e.node_id));

describe('POST /pipelines/{id}/fork', () => {
  it('queues a new run from the node, with the values set, its id the run id of its files', async () => {
    const server = await testServer();
    const id = await completedRun(server);
    const original = (await server.json('GET', `/pipelines/${id}`)).body;
    const forked = await server.json('POST', `/pipelines/${id}/fork`, {
      from_node: 'implement',
      set: { speed: 'fast' },
    });
    expect(forked.status).toBe(201);
    expect(Object.keys(forked.body)).toEqual(['id']);
    const done = await finished(server, forked.body.id);
    expect(done).toMatchObject({ status: 'completed', quality: 'clean', stopped_at: 'exit' });
    expect(startedNodes(done.run_dir)).toEqual(['implement', 'check', 'fast', 'exit']);
    const manifest = JSON.parse(fs.readFileSync(path.join(done.run_dir, 'manifest.json'), 'utf8'));
    expect(manifest.run_id).toBe(forked.body.id);
    expect(manifest.forked_from).toMatchObject({ run_id: id, node: 'implement' });
    // The original is as it was.
    expect(startedNodes(original.run_dir)).toEqual(['start', 'plan', 'implement', 'check', 'slow', 'exit']);
  });

  it('answers 404, 422 and 400 like the other routes', async () => {
    const server = await testServer();
    const id = await completedRun(server);
    const missing = await server.json('POST', '/pipelines/nope/fork', { from_node: 'plan' });
    expect(missing.status).toBe(404);
    const unknown = await server.json('POST', `/pipelines/${id}/fork`, { from_node: 'deploy' });
    expect(unknown).toMatchObject({ status: 422, body: { error: { code: 'FORK_UNKNOWN_NODE' } } });
    const unreached = await server.json('POST', `/pipelines/${id}/fork`, { from_node: 'fast' });
    expect(unreached).toMatchObject({ status: 422, body: { error: { code: 'FORK_NODE_NOT_REACHED' } } });
    expect(unreached.body.error.message).toMatch(/it reached: plan, implement, check, slow, exit/);
    const bad = await server.json('POST', `/pipelines/${id}/fork`, { from_node: 'plan', extra: 1 });
    expect(bad.status).toBe(400);
    const badKey = await server.json('POST', `/pipelines/${id}/fork`, {
      from_node: 'plan',
      set: { 'a b': 'x' },
    });
    expect(badKey.status).toBe(400);
  });
});

describe('POST /pipelines/{id}/fork: from the start, and parameters', () => {
  it('forks from the start node: the whole pipeline runs again, the values set', async () => {
    const server = await testServer();
    const id = await completedRun(server);
    const forked = await server.json('POST', `/pipelines/${id}/fork`, {
      from_node: 'start',
      set: { speed: 'fast' },
    });
    expect(forked.status).toBe(201);
    const done = await finished(server, forked.body.id);
    expect(done).toMatchObject({ status: 'completed', stopped_at: 'exit' });
    expect(startedNodes(done.run_dir)).toEqual(['start', 'plan', 'implement', 'check', 'fast', 'exit']);
  });

  it.each([
    [{ 'vars.speed': 'fast' }, 'it declares none'],
    [{ 'vars.nope': 'x' }, 'it declares none'],
  ])('refuses %j: a parameter the pipeline does not declare (422)', async (set, says) => {
    const server = await testServer();
    const id = await completedRun(server);
    const refused = await server.json('POST', `/pipelines/${id}/fork`, { from_node: 'plan', set });
    expect(refused).toMatchObject({ status: 422, body: { error: { code: 'FORK_UNKNOWN_PARAMETER' } } });
    expect(refused.body.error.message).toContain(says);
  });
});

describe('a server run', () => {
  it('has one id: the record’s is the run’s run_id; an inline source names no file in the manifest', async () => {
    const server = await testServer();
    const id = await completedRun(server);
    const { body } = await server.json('GET', `/pipelines/${id}`);
    const manifest = JSON.parse(fs.readFileSync(path.join(body.run_dir, 'manifest.json'), 'utf8'));
    expect(manifest.run_id).toBe(id);
    expect(manifest).not.toHaveProperty('source_file');
  });
});
