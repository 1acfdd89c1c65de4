import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultServerDataDir } from '../../src/server/default-data-dir.js';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { tempDir } from '../helpers/temp-dir.js';
import { closeServers, testServer, waitFor } from './server-fixtures.js';

afterEach(closeServers);

const GATE = `digraph g {
  start [shape=Mdiamond]
  gate [shape=hexagon, label="Ship?"]
  ship [prompt="ship"]
  exit [shape=Msquare]
  start -> gate
  gate -> ship [label="[S] Ship"]
  ship -> exit
}`;

/** A tool node that writes `file` (relative to where it works) with `text`. */
const writer = (file: string, text: string) =>
  `digraph w { start [shape=Mdiamond]; write [shape=parallelogram, tool_command="mkdir -p ${path.dirname(file)} && printf '%s' '${text.replaceAll('"', '\\"')}' > ${file}"]; exit [shape=Msquare]; start -> write -> exit }`;

describe("a one-process server's data folder and the folders its runs work in", () => {
  it("a run cannot work in a folder that holds the data folder, so its command cannot answer another run's gate", async () => {
    const root = tempDir();
    const server = await testServer({
      allowTools: true,
      allowWorkdirs: [root],
      dataDir: path.join(root, '.attractor-server'),
    });
    const { body: gated } = await server.json('POST', '/pipelines', { dot_source: GATE, dry_run: true });
    const question = await waitFor(
      async () =>
        (await server.json('GET', `/pipelines/${gated.id}/questions`)).body[0]?.id as string | undefined,
      'the gate to ask',
    );
    const runDir = (await server.json('GET', `/pipelines/${gated.id}`)).body.run_dir as string;
    // Where `attractor attach` would put its answer, as seen from the folder the run below works in.
    const answer = path.join(path.relative(root, runDir), 'answers', `${question}.json`);
    const forged = JSON.stringify({ id: question, choice: 'S', answered_at: new Date().toISOString() });
    const refused = await server.json('POST', '/pipelines', {
      dot_source: writer(answer, forged),
      scenario: {},
      working_dir: root,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('WORKDIR_NOT_ALLOWED');
    expect(refused.body.error.message).toContain('data folder');
    expect(refused.body.error.message).not.toContain('.attractor-server');
    // The gate still waits for a person.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await server.json('GET', `/pipelines/${gated.id}`)).body.status).toBe('waiting');
    // A folder beside the data folder is fine.
    const beside = path.join(root, 'checkout');
    mkdirSync(beside);
    const accepted = await server.json('POST', '/pipelines', {
      dot_source: writer('out/x', 'x'),
      scenario: {},
      working_dir: beside,
    });
    expect(accepted.status).toBe(201);
  });

  it('refuses to start when its data folder lies inside the folder its runs work in', async () => {
    const work = tempDir();
    const started = testServer(
      { dataDir: path.join(work, 'data') },
      { realRuns: { workingDir: work, env: {} } },
    );
    await expect(started).rejects.toMatchObject({ code: 'DATA_DIR_IN_WORKDIR' });
    await expect(started).rejects.toThrow(/--data-dir/);
  });

  it.each([
    {
      env: { XDG_STATE_HOME: '/state' },
      cwd: '/home/ann/project',
      expected: /^\/state\/attractor\/serve\/project-[0-9a-f]{8}$/,
    },
    {
      env: {},
      cwd: '/home/ann/project',
      expected: /^\/home\/ann\/\.local\/state\/attractor\/serve\/project-[0-9a-f]{8}$/,
    },
  ])(
    'by default keeps it under the state folder, one per working directory ($env)',
    ({ env, cwd, expected }) => {
      const dir = defaultServerDataDir(cwd, env, '/home/ann');
      expect(dir).toMatch(expected);
      expect(dir.startsWith(`${cwd}/`)).toBe(false);
      expect(defaultServerDataDir('/home/ann/other/project', env, '/home/ann')).not.toBe(dir);
      expect(defaultServerDataDir(cwd, env, '/home/ann')).toBe(dir);
    },
  );

  it('`attractor serve` without --data-dir keeps its data under the state folder, not where it works', async () => {
    ensureDist();
    const work = tempDir();
    const state = tempDir();
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
      cwd: work,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', XDG_STATE_HOME: state },
    });
    try {
      const said = await new Promise<string>((resolve, reject) => {
        let stderr = '';
        child.stderr?.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          const match = /\(data in (\S+)\)/.exec(stderr);
          if (match?.[1]) resolve(match[1]);
        });
        child.on('exit', () => reject(new Error(`serve exited: ${stderr}`)));
      });
      expect(said).toBe(defaultServerDataDir(realpathSync(work), { XDG_STATE_HOME: state }, '/unused'));
      expect(existsSync(said)).toBe(true);
      expect(existsSync(path.join(work, '.attractor-server'))).toBe(false);
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }, 60_000);
});
