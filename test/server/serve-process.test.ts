import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import {
  anthropicStreamReply,
  FAKE_ANTHROPIC_KEY,
  startFakeAnthropicServer,
} from '../helpers/fake-anthropic-server.js';
import { GATE_PIPELINE, waitFor } from './server-fixtures.js';

beforeAll(ensureDist, 120_000);

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Starts `attractor serve --port 0` as a real process; resolves with its URL once it listens. */
async function serve(
  dataDir: string,
  ...flags: string[]
): Promise<{ child: ChildProcess; url: string; exited: Promise<number | null> }> {
  return serveWith({}, dataDir, ...flags);
}

/**
 * The folder a server started for `dataDir` works in (its runs' tool commands and agents): beside the
 * data folder, never around it
 * (docs/decisions/0005-what-a-submitted-pipeline-may-do.md).
 */
function workFolderOf(dataDir: string): string {
  const work = `${dataDir}.work`;
  if (!fs.existsSync(work)) {
    fs.mkdirSync(work);
    dirs.push(work);
  }
  return work;
}

async function serveWith(
  env: Record<string, string>,
  dataDir: string,
  ...flags: string[]
): Promise<{ child: ChildProcess; url: string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir, ...flags], {
    cwd: workFolderOf(dataDir),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', () => reject(new Error(`serve exited: ${stderr}`)));
  });
  return { child, url, exited };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read response bodies field by field
const call = async (url: string, method = 'GET', body?: unknown): Promise<{ status: number; body: any }> => {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
};

const pending = (url: string, id: string) =>
  waitFor(async () => {
    const { body } = await call(`${url}/pipelines/${id}/questions`);
    return body.length > 0 ? body[0] : undefined;
  }, 'a pending question');

describe('attractor serve as a process', () => {
  it('runs a real-model pipeline with the agent backend (keys from the server environment)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-serve-agent-'));
    dirs.push(dataDir);
    // The agents' working folder is a git work tree: the node keeps what its agent changed as a diff.
    execFileSync('git', ['init', '-q'], { cwd: workFolderOf(dataDir) });
    const fake = await startFakeAnthropicServer();
    try {
      fake.enqueue(
        anthropicStreamReply({
          content: [
            {
              type: 'tool_use',
              id: 'toolu_1',
              name: 'write_file',
              input: { path: 'hello.txt', content: 'hi\n' },
            },
          ],
          stop_reason: 'tool_use',
          usage: { input_tokens: 10, output_tokens: 5 },
        }),
        anthropicStreamReply({
          content: [{ type: 'text', text: 'Wrote hello.txt.' }],
          usage: { input_tokens: 10, output_tokens: 5 },
        }),
      );
      const server = await serveWith(
        { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY, ANTHROPIC_BASE_URL: fake.origin },
        dataDir,
      );
      const dot = `digraph hello { start [shape=Mdiamond]; exit [shape=Msquare]; write [prompt="Create hello.txt", llm_model="claude-sonnet-4-6"]; start -> write -> exit }`;
      const { body } = await call(`${server.url}/pipelines`, 'POST', { dot_source: dot });
      const done = await waitFor(async () => {
        const r = (await call(`${server.url}/pipelines/${body.id}`)).body;
        return ['completed', 'failed'].includes(r.status) ? r : undefined;
      }, 'the agent run to end');
      expect(done).toMatchObject({ status: 'completed' });
      expect(fs.readFileSync(path.join(workFolderOf(dataDir), 'hello.txt'), 'utf8')).toBe('hi\n');
      const node = (await call(`${server.url}/pipelines/${body.id}/nodes/write`)).body;
      expect(node.response).toBe('Wrote hello.txt.');
      expect(node.diff).toContain('diff --git a/hello.txt b/hello.txt');
      expect(node.diff).toMatch(/^\+hi$/m);
      // The server's own records in its data folder are not the agent's changes.
      expect(node.diff).not.toMatch(/runs\/|events\.jsonl|record\.json/);
      // The web view's files are found from the package's folder, wherever the CLI's code sits.
      const app = await fetch(`${server.url}/web/app.js`);
      expect(app.status).toBe(200);
      expect(app.headers.get('content-type')).toContain('javascript');
    } finally {
      await fake.close();
    }
  }, 60_000);

  it('after SIGKILL, a restarted server lists the run as interrupted with its question; resume finishes it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-serve-kill-'));
    dirs.push(dataDir);
    const first = await serve(dataDir);
    const { body } = await call(`${first.url}/pipelines`, 'POST', {
      dot_source: GATE_PIPELINE,
      dry_run: true,
    });
    const question = await pending(first.url, body.id);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await serve(dataDir);
    expect((await call(`${second.url}/pipelines/${body.id}`)).body.status).toBe('interrupted');
    const listed = (await call(`${second.url}/pipelines/${body.id}/questions`)).body;
    expect(listed.map((q: { id: string }) => q.id)).toEqual([question.id]);
    const resumed = await call(`${second.url}/pipelines/${body.id}/resume`, 'POST');
    expect(resumed.status).toBe(202);
    const again = await pending(second.url, body.id);
    expect(again).toMatchObject({ id: question.id, stage: 'review' });
    await call(`${second.url}/pipelines/${body.id}/questions/${again.id}/answer`, 'POST', { answer: 'R' });
    const done = await waitFor(async () => {
      const r = (await call(`${second.url}/pipelines/${body.id}`)).body;
      return r.status === 'completed' ? r : undefined;
    }, 'the resumed run to complete');
    expect(done.quality).toBe('clean');
    const checkpoint = (await call(`${second.url}/pipelines/${body.id}/checkpoint`)).body;
    expect(checkpoint.completed_nodes).toEqual(expect.arrayContaining(['plan', 'review', 'rework']));
    // plan ran once: its node.start appears once in the whole event log, across both servers.
    const events = fs.readFileSync(path.join(findRunDir(dataDir, body.id), 'events.jsonl'), 'utf8');
    expect(events.match(/"kind":"node.start","node_id":"plan"/g)).toHaveLength(1);
  }, 60_000);

  it('SIGTERM drains: a running tool node finishes, the run pauses with a checkpoint, the process exits 0', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-serve-term-'));
    dirs.push(dataDir);
    const slow = `digraph slow { start [shape=Mdiamond]; wait [shape=parallelogram, tool_command="sleep 1"]; after [shape=parallelogram, tool_command="true"]; exit [shape=Msquare]; start -> wait -> after -> exit }`;
    const server = await serve(dataDir, '--allow-tools');
    const { body } = await call(`${server.url}/pipelines`, 'POST', { dot_source: slow, scenario: {} });
    // SIGTERM once the tool runs: its node.start is in the run's event log.
    await waitFor(async () => {
      const running = (await call(`${server.url}/pipelines/${body.id}`)).body.status === 'running';
      if (!running) return undefined;
      const log = path.join(findRunDir(dataDir, body.id), 'events.jsonl');
      const events = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
      return events.includes('"kind":"node.start","node_id":"wait"') ? true : undefined;
    }, 'the tool node running');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const restarted = await serve(dataDir, '--allow-tools');
    expect((await call(`${restarted.url}/pipelines/${body.id}`)).body.status).toBe('paused');
    const checkpoint = (await call(`${restarted.url}/pipelines/${body.id}/checkpoint`)).body;
    expect(checkpoint).toMatchObject({ status: 'paused', current_node: 'after' });
    expect(checkpoint.completed_nodes).toContain('wait');
    expect((await call(`${restarted.url}/pipelines/${body.id}/resume`, 'POST')).status).toBe(202);
    const done = await waitFor(async () => {
      const r = (await call(`${restarted.url}/pipelines/${body.id}`)).body;
      return r.status === 'completed' ? r : undefined;
    }, 'completion after resume');
    expect(done.status).toBe('completed');
  }, 60_000);
});

/** The store keeps each run's directory at `<data dir>/runs/<id>/run/`. */
const findRunDir = (dataDir: string, id: string): string => path.join(dataDir, 'runs', id, 'run');
