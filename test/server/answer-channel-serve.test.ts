import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { GATE_PIPELINE, waitFor } from './server-fixtures.js';

beforeAll(ensureDist, 120_000);

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/**
 * A real `attractor serve --port 0`, working in a folder beside its data folder (never around it:
 * docs/decisions/0005-what-a-submitted-pipeline-may-do.md); resolves with its URL.
 */
async function serve(dataDir: string): Promise<string> {
  const work = `${dataDir}.work`;
  fs.mkdirSync(work);
  dirs.push(work);
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd: work,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  children.push(child);
  let stderr = '';
  return new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', () => reject(new Error(`serve exited: ${stderr}`)));
  });
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

const questionFiles = (runDir: string): string[] => {
  const dir = path.join(runDir, 'questions');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
};

const attach = (runDir: string, answer: string) =>
  spawnSync(process.execPath, [BIN, 'attach', runDir, '--answer', answer], {
    encoding: 'utf8',
    timeout: 20_000,
  });

/** Starts a dry run of the gate pipeline (over HTTP a dry run waits for a person) and waits for its gate. */
async function gatedRun(url: string) {
  const { body } = await call(`${url}/pipelines`, 'POST', { dot_source: GATE_PIPELINE, dry_run: true });
  const question = await waitFor(async () => {
    const listed = (await call(`${url}/pipelines/${body.id}/questions`)).body;
    return listed.length > 0 ? listed[0] : undefined;
  }, 'the HTTP question');
  const runDir: string = (await call(`${url}/pipelines/${body.id}`)).body.run_dir;
  await waitFor(async () => (questionFiles(runDir).length > 0 ? true : undefined), 'the question file');
  return { id: body.id as string, question, runDir };
}

const ended = (url: string, id: string) =>
  waitFor(async () => {
    const r = (await call(`${url}/pipelines/${id}`)).body;
    return ['completed', 'failed', 'cancelled'].includes(r.status) ? r : undefined;
  }, 'the run to end');

describe('server runs publish their gates in the run directory', () => {
  it('`attractor attach <run dir> --answer` answers a server run; the HTTP API sees it answered', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-serve-channel-'));
    dirs.push(dataDir);
    const url = await serve(dataDir);
    const { id, question, runDir } = await gatedRun(url);
    expect(runDir).toBe(path.join(fs.realpathSync(dataDir), 'runs', id, 'run'));
    const file = JSON.parse(
      fs.readFileSync(path.join(runDir, 'questions', questionFiles(runDir)[0]!), 'utf8'),
    );
    expect(file).toMatchObject({ node_id: 'review', question: { text: 'Ship it?' } });

    const answered = attach(runDir, 'R');
    expect(answered.stderr).toBe('');
    expect(answered.status).toBe(0);

    expect(await ended(url, id)).toMatchObject({ status: 'completed' });
    expect((await call(`${url}/pipelines/${id}/questions`)).body).toEqual([]);
    const late = await call(`${url}/pipelines/${id}/questions/${question.id}/answer`, 'POST', {
      answer: 'S',
    });
    expect(late.status).toBe(409);
    expect((await call(`${url}/pipelines/${id}/nodes/rework`)).status).toBe(200);
    const events = fs
      .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.find((e) => e.kind === 'interview.complete')?.data).toMatchObject({ key: 'R' });
    expect(events.some((e) => e.kind === 'node.start' && e.node_id === 'ship')).toBe(false);
    expect(questionFiles(runDir)).toEqual([]);
  }, 60_000);

  it('an answer over HTTP withdraws the question file and is recorded there; a late attach is told', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-serve-channel-'));
    dirs.push(dataDir);
    const url = await serve(dataDir);
    const { id, question, runDir } = await gatedRun(url);
    const [name] = questionFiles(runDir);
    const posted = await call(`${url}/pipelines/${id}/questions/${question.id}/answer`, 'POST', {
      answer: 'S',
    });
    expect(posted.status).toBeLessThan(300);
    await waitFor(async () => (questionFiles(runDir).length === 0 ? true : undefined), 'the file withdrawn');
    const record = JSON.parse(fs.readFileSync(path.join(runDir, 'answers', name!), 'utf8'));
    expect(record).toMatchObject({ choice: 'S', answered_by: 'anonymous' });
    expect(await ended(url, id)).toMatchObject({ status: 'completed' });
    const late = attach(runDir, 'R');
    expect(late.status).toBe(1);
  }, 60_000);
});
