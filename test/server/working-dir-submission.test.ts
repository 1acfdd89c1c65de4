import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/start-server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { closeServers, testServer, waitFor } from './server-fixtures.js';

afterEach(async () => {
  await closeServers();
});

const PWD = (marker?: string) =>
  `digraph w { start [shape=Mdiamond]; where [shape=parallelogram, tool_command="pwd${marker ? ` && touch ${marker}` : ''}"]; exit [shape=Msquare]; start -> where -> exit }`;

async function completed(server: Awaited<ReturnType<typeof testServer>>, id: string) {
  return waitFor(async () => {
    const { body } = await server.json('GET', `/pipelines/${id}`);
    return ['completed', 'failed'].includes(body.status) ? body : undefined;
  }, 'the run to end');
}

describe('a submission naming its working_dir (one-process server)', () => {
  it('runs tool commands in a folder inside --allow-workdir', async () => {
    const root = realpathSync(tempDir());
    const checkout = path.join(root, 'checkout');
    mkdirSync(checkout);
    const server = await testServer({ allowTools: true, allowWorkdirs: [root] });
    const { status, body: run } = await server.json('POST', '/pipelines', {
      dot_source: PWD(),
      scenario: {},
      working_dir: checkout,
    });
    expect(status).toBe(201);
    const done = await completed(server, run.id);
    expect(done.status).toBe('completed');
    expect(readFileSync(path.join(done.run_dir, 'where', 'stdout.log'), 'utf8').trim()).toBe(checkout);
  });

  it("keeps working in the server's working directory when a run names none", async () => {
    const server = await testServer({ allowTools: true, allowWorkdirs: [tempDir()] });
    const { body: run } = await server.json('POST', '/pipelines', { dot_source: PWD(), scenario: {} });
    const done = await completed(server, run.id);
    expect(readFileSync(path.join(done.run_dir, 'where', 'stdout.log'), 'utf8').trim()).toBe(
      realpathSync(process.cwd()),
    );
  });

  const refused: Array<{ name: string; dir: (root: string, outside: string) => string; code: string }> = [
    { name: 'a folder outside', dir: (_root, outside) => outside, code: 'WORKDIR_NOT_ALLOWED' },
    {
      name: 'a symlink inside that leads outside',
      dir: (root) => path.join(root, 'escape'),
      code: 'WORKDIR_NOT_ALLOWED',
    },
    { name: 'a missing folder inside', dir: (root) => path.join(root, 'nope'), code: 'WORKDIR_MISSING' },
  ];
  it.each(refused)('refuses $name before queueing the run', async ({ dir, code }) => {
    const root = realpathSync(tempDir());
    const outside = realpathSync(tempDir());
    symlinkSync(outside, path.join(root, 'escape'));
    const server = await testServer({ allowTools: true, allowWorkdirs: [root] });
    const marker = path.join(outside, 'ran');
    const { status, body } = await server.json('POST', '/pipelines', {
      dot_source: PWD(marker),
      scenario: {},
      working_dir: dir(root, outside),
    });
    expect(status).toBe(code === 'WORKDIR_NOT_ALLOWED' ? 403 : 400);
    expect(body.error.code).toBe(code);
    expect(body.error.message).toContain('working_dir');
    expect((await server.json('GET', '/pipelines')).body.pipelines).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses any working_dir on a server started without --allow-workdir', async () => {
    const server = await testServer({ allowTools: true });
    const { status, body } = await server.json('POST', '/pipelines', {
      dot_source: PWD(),
      scenario: {},
      working_dir: realpathSync(tempDir()),
    });
    expect(status).toBe(403);
    expect(body.error.message).toContain('no --allow-workdir folder');
  });

  const malformed: Array<{ name: string; value: unknown; says: RegExp }> = [
    { name: 'a relative path', value: 'checkouts/app', says: /absolute path/ },
    { name: 'an empty string', value: '', says: /too small|at least/i },
    { name: 'a number', value: 42, says: /string/ },
    { name: 'a NUL character', value: '/srv/a\u0000b', says: /NUL/ },
    { name: 'a list', value: ['/srv'], says: /string/ },
  ];
  it.each(malformed)('answers 400 to $name', async ({ value, says }) => {
    const server = await testServer({ allowTools: true, allowWorkdirs: [tempDir()] });
    const { status, body } = await server.json('POST', '/pipelines', {
      dot_source: PWD(),
      scenario: {},
      working_dir: value,
    });
    expect(status).toBe(400);
    expect(body.error.code).toBe('BAD_REQUEST');
    // On the field itself (an unknown field would be refused too, saying so).
    expect(body.error.issues[0]).toEqual({ path: 'working_dir', message: expect.stringMatching(says) });
  });

  it('refuses an --allow-workdir folder that does not exist, and one given with --store', async () => {
    await expect(
      startServer({ port: 0, dataDir: tempDir(), allowWorkdirs: [path.join(tempDir(), 'nope')] }),
    ).rejects.toThrow(/--allow-workdir .*no such folder/);
    await expect(
      startServer({
        port: 0,
        dataDir: tempDir(),
        store: 'postgres://nobody@127.0.0.1:1/none',
        allowWorkdirs: [tempDir()],
      }),
    ).rejects.toThrow(/give --allow-workdir to `attractor worker`/);
  });
});
