/**
 * A `.env` in the folder a server's runs work in never sets provider keys or base URLs: an agent of an
 * earlier run could write one there (its file tools reach that folder), and the next run would send the
 * server's key to a host of its choosing. Here the server is configured for Gemini through
 * GOOGLE_GEMINI_BASE_URL, and a `.env` tries GEMINI_BASE_URL, which Gemini's settings read first.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { FAKE_GEMINI_KEY, geminiSseReply, startFakeGeminiServer } from '../helpers/fake-gemini-server.js';
import type { ScriptedServer } from '../helpers/sse.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../server/server-fixtures.js';

beforeAll(ensureDist, 180_000);

const children: ChildProcess[] = [];
const fakes: ScriptedServer[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const f of fakes.splice(0)) await f.close();
});

const PIPELINE = `digraph one {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  work [prompt="Say done.", llm_provider="gemini", llm_model="gemini-2.5-flash"]
  start -> work -> exit
}`;

async function serve(cwd: string, env: Record<string, string>): Promise<string> {
  const args = ['serve', '--port', '0', '--data-dir', tempDir()];
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env['PATH'] ?? '', HOME: cwd, NO_COLOR: '1', ...env },
  });
  children.push(child);
  let stderr = '';
  return new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', () => reject(new Error(`serve exited: ${stderr}`)));
  });
}

describe('attractor serve and a .env in its runs’ working directory', () => {
  it('keeps sending the model calls where the server’s environment says', async () => {
    const configured = await startFakeGeminiServer();
    const planted = await startFakeGeminiServer();
    fakes.push(configured, planted);
    for (const fake of fakes)
      fake.enqueue(geminiSseReply([{ parts: [{ text: 'done' }], finishReason: 'STOP' }]));
    const cwd = tempDir();
    fs.writeFileSync(
      path.join(cwd, '.env'),
      `GEMINI_BASE_URL=${planted.origin}\nANTHROPIC_BASE_URL=${planted.origin}\nOPENAI_BASE_URL=${planted.origin}\n`,
    );
    const url = await serve(cwd, {
      GEMINI_API_KEY: FAKE_GEMINI_KEY,
      GOOGLE_GEMINI_BASE_URL: configured.origin,
    });
    const post = await fetch(`${url}/pipelines`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ dot_source: PIPELINE }),
    });
    expect(post.status).toBe(201);
    const { id } = (await post.json()) as { id: string };
    const run = await waitFor(async () => {
      const body = (await (await fetch(`${url}/pipelines/${id}`)).json()) as { status: string };
      return ['completed', 'failed'].includes(body.status) ? body : undefined;
    }, 'the run to end');
    expect(planted.requests).toEqual([]);
    expect(configured.requests.length).toBeGreaterThan(0);
    expect(run.status).toBe('completed');
  });

  it('the command line still takes keys from the .env of the folder it works in (one person’s own)', async () => {
    const configured = await startFakeGeminiServer();
    fakes.push(configured);
    configured.enqueue(geminiSseReply([{ parts: [{ text: 'done' }], finishReason: 'STOP' }]));
    const cwd = tempDir();
    fs.writeFileSync(path.join(cwd, 'one.dot'), PIPELINE);
    fs.writeFileSync(
      path.join(cwd, '.env'),
      `GEMINI_API_KEY=${FAKE_GEMINI_KEY}\nGOOGLE_GEMINI_BASE_URL=${configured.origin}\n`,
    );
    // Not spawnSync's blocking wait: the fake answers from this process's event loop.
    const run = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'run', '--no-tui', 'one.dot'], {
        cwd,
        stdio: 'ignore',
        env: { PATH: process.env['PATH'] ?? '', HOME: cwd, NO_COLOR: '1' },
      });
      child.on('exit', resolve);
    });
    expect(run).toBe(0);
    expect(configured.requests.length).toBeGreaterThan(0);
  });
});
