import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isServerSecretName } from '../../src/server/server-secret-names.js';
import { filterSecretEnv, refusePassthrough } from '../../src/shared/process/filter-secret-env.js';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { tempDir } from '../helpers/temp-dir.js';
import { closeServers, testServer, waitFor } from './server-fixtures.js';

afterEach(closeServers);

const pipeline = (graphAttrs: string, nodeAttrs: string) => `digraph p {
  graph [${graphAttrs}]
  start [shape=Mdiamond]
  exit [shape=Msquare]
  work [prompt="Work" ${nodeAttrs}]
  start -> work -> exit
}`;

describe('a submitted pipeline cannot pass the server’s own secrets through', () => {
  it.each([
    ['the provider key on the graph', 'env_passthrough="ANTHROPIC_API_KEY"', '', ['ANTHROPIC_API_KEY']],
    [
      'keys and base URLs on a node',
      '',
      ', env_passthrough="OPENAI_API_KEY GEMINI_API_KEY GOOGLE_API_KEY ANTHROPIC_BASE_URL"',
      ['OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'ANTHROPIC_BASE_URL'],
    ],
    [
      'the store and the token',
      'env_passthrough="DATABASE_URL,PGPASSWORD"',
      ', env_passthrough="ATTRACTOR_TOKEN"',
      ['DATABASE_URL', 'PGPASSWORD', 'ATTRACTOR_TOKEN'],
    ],
    ['a near miss in case', 'env_passthrough="anthropic_api_key"', '', ['anthropic_api_key']],
  ])('%s: 400 naming them', async (_what, graphAttrs, nodeAttrs, names) => {
    const server = await testServer();
    const refused = await server.json('POST', '/pipelines', {
      dot_source: pipeline(graphAttrs, nodeAttrs),
      dry_run: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('SECRET_NOT_ALLOWED');
    for (const name of names) expect(refused.body.error.message).toContain(name);
    expect((await server.json('GET', '/pipelines')).body.pipelines).toHaveLength(0);
  });

  it('a secret of the pipeline’s own (GH_TOKEN) is accepted', async () => {
    const server = await testServer();
    const created = await server.json('POST', '/pipelines', {
      dot_source: pipeline('env_passthrough="GH_TOKEN"', ''),
      dry_run: true,
    });
    expect(created.status).toBe(201);
  });
});

describe('refusePassthrough (serve and worker at start)', () => {
  afterEach(() => refusePassthrough(() => false));

  it('takes the server’s names from every command’s environment, named in env_passthrough or not', () => {
    const env = { PATH: '/bin', ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://x', GH_TOKEN: 't' };
    expect(filterSecretEnv(env, ['ANTHROPIC_API_KEY', 'GH_TOKEN'])).toEqual({
      PATH: '/bin',
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: 'http://x',
      GH_TOKEN: 't',
    });
    refusePassthrough(isServerSecretName);
    expect(filterSecretEnv(env, ['ANTHROPIC_API_KEY', 'GH_TOKEN'])).toEqual({ PATH: '/bin', GH_TOKEN: 't' });
  });
});

describe('attractor serve', () => {
  beforeAll(ensureDist, 180_000);

  it('gives no command its key, even through a child pipeline read at run time', async () => {
    const dir = tempDir();
    const pipelines = path.join(dir, 'pipelines');
    fs.mkdirSync(pipelines);
    fs.writeFileSync(
      path.join(pipelines, 'child.dot'),
      `digraph child { start [shape=Mdiamond]; exit [shape=Msquare]
        leak [shape=parallelogram, env_passthrough="ANTHROPIC_API_KEY", tool_command="echo key=[$ANTHROPIC_API_KEY]"]
        start -> leak -> exit }`,
    );
    fs.writeFileSync(
      path.join(pipelines, 'boss.dot'),
      `digraph boss { start [shape=Mdiamond]; exit [shape=Msquare]
        m [shape=house, stack.child_dotfile="child.dot", manager.poll_interval="10ms"]
        start -> m -> exit }`,
    );
    const data = tempDir();
    const args = ['serve', '--port', '0', '--data-dir', data, '--allow-dir', pipelines];
    const child = spawn(process.execPath, [BIN, ...args, '--allow-tools'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env['PATH'] ?? '', HOME: dir, ANTHROPIC_API_KEY: 'sk-server-own-key-1234' },
    });
    try {
      let stderr = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          const match = /listening on (http:\/\/\S+)/.exec(stderr);
          if (match?.[1]) resolve(match[1]);
        });
        child.on('exit', () => reject(new Error(`serve exited: ${stderr}`)));
      });
      const post = await fetch(`${url}/pipelines`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ dot_path: 'boss.dot', scenario: {} }),
      });
      expect(post.status).toBe(201);
      const { id } = (await post.json()) as { id: string };
      const run = await waitFor(async () => {
        const body = (await (await fetch(`${url}/pipelines/${id}`)).json()) as { status: string };
        return ['completed', 'failed'].includes(body.status) ? body : undefined;
      }, 'the run to end');
      expect(run.status).toBe('completed');
      const logs = fs
        .readdirSync(data, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name === 'stdout.log')
        .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'));
      expect(logs).toEqual(['key=[]\n']);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
