import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { closeServers, type TestServer, testServer, waitFor } from './server-fixtures.js';

afterEach(closeServers);

const WRITES = `digraph writes {
  start [shape=Mdiamond]
  write [shape=parallelogram, tool_command="echo one > a.txt"]
  later [shape=parallelogram, tool_command="echo two > b.txt && rm keep.txt"]
  exit [shape=Msquare]
  start -> write -> later -> exit
}
`;

async function finished(server: TestServer, id: string) {
  return waitFor(async () => {
    const { body } = await server.json('GET', `/pipelines/${id}`);
    return ['completed', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
  }, `run ${id} to end`);
}

/** A scenario run writing files in `checkout` (inside the server's --allow-workdir `root`). */
async function ranIn(): Promise<{ server: TestServer; id: string; checkout: string; root: string }> {
  const root = realpathSync(tempDir());
  const checkout = path.join(root, 'checkout');
  mkdirSync(checkout);
  writeFileSync(path.join(checkout, 'keep.txt'), 'keep\n');
  const server = await testServer({ allowTools: true, allowWorkdirs: [root] });
  const created = await server.json('POST', '/pipelines', {
    dot_source: WRITES,
    scenario: {},
    working_dir: checkout,
  });
  expect(created.status).toBe(201);
  expect((await finished(server, created.body.id)).status).toBe('completed');
  return { server, id: created.body.id, checkout, root };
}

describe("the server's node view and fork use the run's snapshots", () => {
  it("shows a node's diff from its snapshot", async () => {
    const { server, id } = await ranIn();
    const { body } = await server.json('GET', `/pipelines/${id}/nodes/later`);
    expect(body.diff).toContain('+two');
    expect(body.diff).toContain('-keep');
    expect(body.diff).not.toContain('+one');
  });

  it('forks into a folder beside the original, with the files the node found', async () => {
    const { server, id, checkout } = await ranIn();
    const forked = await server.json('POST', `/pipelines/${id}/fork`, { from_node: 'later' });
    expect(forked.status).toBe(201);
    const done = await finished(server, forked.body.id);
    expect(done.status).toBe('completed');
    const folder = `${checkout}.fork-${forked.body.id}`;
    // `later` ran there again: from a.txt and keep.txt (as it found them) to a.txt and b.txt.
    expect(readFileSync(path.join(folder, 'a.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(path.join(folder, 'b.txt'), 'utf8')).toBe('two\n');
    expect(existsSync(path.join(folder, 'keep.txt'))).toBe(false);
    expect(existsSync(path.join(checkout, 'b.txt'))).toBe(true);
  });

  it('refuses a fork whose folder would lie outside every --allow-workdir folder', async () => {
    const { server, root } = await ranIn();
    // The folder beside `checkout` is inside `root`; one beside `root` itself is not: work in `root`.
    writeFileSync(path.join(root, 'keep.txt'), 'keep\n');
    const outer = await server.json('POST', '/pipelines', {
      dot_source: WRITES,
      scenario: {},
      working_dir: root,
    });
    expect((await finished(server, outer.body.id)).status).toBe('completed');
    const refused = await server.json('POST', `/pipelines/${outer.body.id}/fork`, { from_node: 'later' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('WORKDIR_NOT_ALLOWED');
    expect(refused.body.error.message).toContain('--allow-workdir');
    const runs = (await server.json('GET', '/pipelines')).body;
    expect(JSON.stringify(runs)).not.toContain('fork');
  });
});
