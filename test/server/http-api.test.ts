import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/start-server.js';
import { groupRunning } from '../../src/shared/process/find-group-members.js';
import { serverSandbox } from '../../src/shared/sandbox/server-sandbox.js';
import {
  closeServers,
  GATE_PIPELINE,
  LINEAR_PIPELINE,
  readSse,
  type TestServer,
  testServer,
  waitFor,
} from './server-fixtures.js';

afterEach(closeServers);

async function pendingQuestion(server: TestServer, id: string) {
  return waitFor(async () => {
    const { body } = await server.json('GET', `/pipelines/${id}/questions`);
    return body.length > 0 ? body[0] : undefined;
  }, 'a pending question');
}

async function finished(server: TestServer, id: string) {
  return waitFor(async () => {
    const { body } = await server.json('GET', `/pipelines/${id}`);
    return ['completed', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
  }, `run ${id} to end`);
}

describe('attractor serve: runs', () => {
  it('starts a dry run, reports it, and ends it completed with outcome and notes', async () => {
    const server = await testServer();
    const created = await server.json('POST', '/pipelines', { dot_source: LINEAR_PIPELINE, dry_run: true });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'linear', status: expect.stringMatching(/queued|running/) });
    const done = await finished(server, created.body.id);
    expect(done).toMatchObject({
      status: 'completed',
      quality: 'clean',
      outcome: 'success',
      stopped_at: 'exit',
    });
    expect(done.event_count).toBeGreaterThan(5);
    const health = await server.json('GET', '/healthz');
    expect(health).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('answers a human gate over HTTP and routes the pipeline on the answer', async () => {
    const server = await testServer();
    const { body } = await server.json('POST', '/pipelines', { dot_source: GATE_PIPELINE, dry_run: true });
    const question = await pendingQuestion(server, body.id);
    expect(question).toMatchObject({
      text: 'Ship it?',
      stage: 'review',
      type: 'multiple_choice',
      options: [
        { key: 'S', label: '[S] Ship' },
        { key: 'R', label: '[R] Rework' },
      ],
    });
    const answered = await server.json('POST', `/pipelines/${body.id}/questions/${question.id}/answer`, {
      answer: 'R',
    });
    expect(answered.status).toBe(200);
    await finished(server, body.id);
    const checkpoint = await server.json('GET', `/pipelines/${body.id}/checkpoint`);
    expect(checkpoint.body.completed_nodes).toContain('rework');
    expect(checkpoint.body.completed_nodes).not.toContain('ship');
    const again = await server.json('POST', `/pipelines/${body.id}/questions/${question.id}/answer`, {
      answer: 'S',
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('QUESTION_NOT_PENDING');
  });

  it('serves a running run’s newest checkpoint, which can be its journal’s last line', async () => {
    const server = await testServer();
    const { body } = await server.json('POST', '/pipelines', { dot_source: GATE_PIPELINE, dry_run: true });
    await pendingQuestion(server, body.id);
    const runDir = (await server.json('GET', `/pipelines/${body.id}`)).body.run_dir as string;
    const atGate = await server.json('GET', `/pipelines/${body.id}/checkpoint`);
    expect(atGate.body).toMatchObject({ current_node: 'review', status: 'running' });
    // A step the engine journaled but has not copied to checkpoint.json yet (decision 0470).
    const newer = { ...atGate.body, current_node: 'journaled', steps: atGate.body.steps + 1 };
    fs.appendFileSync(path.join(runDir, 'checkpoint-journal.jsonl'), `${JSON.stringify(newer)}\n`);
    const read = await server.json('GET', `/pipelines/${body.id}/checkpoint`);
    expect(read.body.current_node).toBe('journaled');
    const context = await server.json('GET', `/pipelines/${body.id}/context`);
    expect(context.body.context).toEqual(newer.context);
  });

  it('auto_approve takes the first option without asking', async () => {
    const server = await testServer();
    const { body } = await server.json('POST', '/pipelines', {
      dot_source: GATE_PIPELINE,
      dry_run: true,
      auto_approve: true,
    });
    await finished(server, body.id);
    expect((await server.json('GET', `/pipelines/${body.id}/context`)).body.context['human.gate.label']).toBe(
      '[S] Ship',
    );
  });

  it('cancels a run waiting at a gate', async () => {
    const server = await testServer();
    const { body } = await server.json('POST', '/pipelines', { dot_source: GATE_PIPELINE, dry_run: true });
    await pendingQuestion(server, body.id);
    const cancelled = await server.json('POST', `/pipelines/${body.id}/cancel`);
    expect(cancelled.body).toEqual({ id: body.id, status: 'cancelled' });
    expect((await server.json('GET', `/pipelines/${body.id}/questions`)).body).toEqual([]);
    expect((await server.json('POST', `/pipelines/${body.id}/cancel`)).status).toBe(409);
  });

  it('resumes a run cancelled at a gate, as `attractor resume` resumes a cancelled run directory', async () => {
    const server = await testServer();
    const { body } = await server.json('POST', '/pipelines', { dot_source: GATE_PIPELINE, dry_run: true });
    await pendingQuestion(server, body.id);
    await server.json('POST', `/pipelines/${body.id}/cancel`);
    expect((await server.json('GET', `/pipelines/${body.id}`)).body).toMatchObject({
      status: 'cancelled',
      checkpointed: true,
    });
    expect((await server.json('POST', `/pipelines/${body.id}/resume`)).status).toBe(202);
    const asked = await pendingQuestion(server, body.id);
    await server.json('POST', `/pipelines/${body.id}/questions/${asked.id}/answer`, { answer: 'S' });
    expect(await finished(server, body.id)).toMatchObject({ status: 'completed' });
    const again = await server.json('POST', `/pipelines/${body.id}/resume`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'NOT_RESUMABLE', message: /nothing to resume/ });
  });

  it('cancel kills the running tool process group', async () => {
    // The tool runs in the sandbox, where its own pids mean nothing outside: the run's process ledger
    // (processes.json) says which group the host must see gone.
    const dot = `digraph t { start [shape=Mdiamond]; run [shape=parallelogram, tool_command="sleep 30 & exec sleep 30"]; exit [shape=Msquare]; start -> run -> exit }`;
    const server = await testServer({ allowTools: true });
    const { body } = await server.json('POST', '/pipelines', { dot_source: dot, scenario: {} });
    const ledger = path.join(server.dataDir, 'runs', body.id, 'run', 'processes.json');
    const pgid = await waitFor(() => {
      if (!fs.existsSync(ledger)) return undefined;
      const entries = JSON.parse(fs.readFileSync(ledger, 'utf8')).processes as Array<{ pgid: number }>;
      return entries[0]?.pgid;
    }, 'the tool to start');
    expect(groupRunning(pgid)).toBe(true);
    expect((await server.json('POST', `/pipelines/${body.id}/cancel`)).body.status).toBe('cancelled');
    await waitFor(() => (groupRunning(pgid) ? undefined : true), 'the tool process group to be gone');
  });

  it('queues runs beyond --max-concurrent-runs and starts them as others end', async () => {
    const server = await testServer({ maxConcurrentRuns: 1 });
    const first = (await server.json('POST', '/pipelines', { dot_source: GATE_PIPELINE, dry_run: true }))
      .body;
    await pendingQuestion(server, first.id);
    const second = (await server.json('POST', '/pipelines', { dot_source: LINEAR_PIPELINE, dry_run: true }))
      .body;
    expect((await server.json('GET', `/pipelines/${second.id}`)).body.status).toBe('queued');
    const queued = await server.json('GET', '/pipelines?status=queued');
    expect(queued.body.pipelines.map((p: { id: string }) => p.id)).toEqual([second.id]);
    const q = await pendingQuestion(server, first.id);
    await server.json('POST', `/pipelines/${first.id}/questions/${q.id}/answer`, { answer: 'S' });
    expect((await finished(server, second.id)).status).toBe('completed');
    const all = await server.json('GET', '/pipelines?limit=1');
    expect(all.body.pipelines).toHaveLength(1);
    expect(all.body.next_cursor).toEqual(expect.any(String));
    const rest = await server.json('GET', `/pipelines?limit=1&cursor=${all.body.next_cursor}`);
    expect([all.body.pipelines[0].id, rest.body.pipelines[0].id].sort()).toEqual(
      [first.id, second.id].sort(),
    );
  });

  it('serves node details, context and the graph as JSON and as SVG coloured by status', async () => {
    const server = await testServer();
    const { body } = await server.json('POST', '/pipelines', {
      dot_source: LINEAR_PIPELINE,
      dry_run: true,
      goal: 'G',
    });
    await finished(server, body.id);
    const node = await server.json('GET', `/pipelines/${body.id}/nodes/a`);
    expect(node.body).toMatchObject({ node_id: 'a', state: 'success', status: { outcome: 'success' } });
    expect(node.body.prompt).toContain('A');
    expect(node.body.response).toEqual(expect.any(String));
    expect((await server.json('GET', `/pipelines/${body.id}/nodes/nope`)).status).toBe(404);
    const graph = await server.json('GET', `/pipelines/${body.id}/graph`);
    expect(graph.body.nodes.map((n: { id: string }) => n.id)).toEqual(['start', 'a', 'b', 'exit']);
    expect(graph.body.statuses).toMatchObject({ a: 'success', b: 'success' });
    const svg = await fetch(`${server.url}/pipelines/${body.id}/graph`, {
      headers: { accept: 'image/svg+xml' },
    });
    expect(svg.headers.get('content-type')).toMatch(/image\/svg\+xml/);
    const text = await svg.text();
    expect(text).toContain('<svg');
    expect(text).toContain('#bbf7d0');
    const context = await server.json('GET', `/pipelines/${body.id}/context`);
    expect(context.body).toMatchObject({ pipeline_id: body.id, context: { goal: 'G' } });
  });
});

describe('attractor serve: errors', () => {
  it('400 with diagnostics for an invalid pipeline, with a location for a syntax error', async () => {
    const server = await testServer();
    const invalid = await server.json('POST', '/pipelines', {
      dot_source: 'digraph x { a -> b }',
      dry_run: true,
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('INVALID_PIPELINE');
    expect(invalid.body.error.diagnostics.length).toBeGreaterThan(0);
    const syntax = await server.json('POST', '/pipelines', {
      dot_source: 'digraph x {\n a -> \n',
      dry_run: true,
    });
    expect(syntax.status).toBe(400);
    expect(syntax.body.error.message).toMatch(/<inline>:\d+:\d+/);
    const shape = await server.json('POST', '/pipelines', { dot_source: 'x', log_dir: '/tmp' });
    expect(shape.status).toBe(400);
    expect(shape.body.error.code).toBe('BAD_REQUEST');
    const notJson = await server.json('POST', '/pipelines', '{nope');
    expect(notJson.body.error.code).toBe('BAD_JSON');
  });

  it('404 for unknown runs and routes, 413 for bodies over the limit', async () => {
    const server = await testServer({ bodyLimitBytes: 1000 });
    expect((await server.json('GET', '/pipelines/nope')).status).toBe(404);
    expect((await server.json('GET', '/pipelines/nope/events')).status).toBe(404);
    expect((await server.json('GET', '/nothing')).status).toBe(404);
    const big = await server.json('POST', '/pipelines', {
      dot_source: `digraph x { ${'a; '.repeat(1000)} }`,
    });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('BODY_TOO_LARGE');
  });

  it('403 for tool nodes unless started with --allow-tools (dry runs execute none)', async () => {
    const tools = `digraph t { start [shape=Mdiamond]; run [shape=parallelogram, tool_command="echo hi"]; exit [shape=Msquare]; start -> run -> exit }`;
    const server = await testServer();
    const refused = await server.json('POST', '/pipelines', { dot_source: tools, scenario: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/--allow-tools/);
    expect((await server.json('POST', '/pipelines', { dot_source: tools, dry_run: true })).status).toBe(201);
    const allowed = await testServer({ allowTools: true });
    const run = await allowed.json('POST', '/pipelines', { dot_source: tools, scenario: {} });
    expect(run.status).toBe(201);
    await finished(allowed, run.body.id);
    const node = await allowed.json('GET', `/pipelines/${run.body.id}/nodes/run`);
    expect(node.body.status.outcome).toBe('success');
  });

  it('422 for a real-model run when the server has no backend', async () => {
    const server = await testServer();
    const refused = await server.json('POST', '/pipelines', { dot_source: LINEAR_PIPELINE });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('NO_BACKEND');
  });

  it('dot_path stays inside the allowed directories', async () => {
    const allowed = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-allowed-'));
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-outside-'));
    try {
      fs.writeFileSync(path.join(allowed, 'p.dot'), LINEAR_PIPELINE);
      fs.writeFileSync(path.join(outside, 'secret.dot'), LINEAR_PIPELINE);
      fs.symlinkSync(path.join(outside, 'secret.dot'), path.join(allowed, 'link.dot'));
      const server = await testServer({ allowDirs: [allowed] });
      expect((await server.json('POST', '/pipelines', { dot_path: 'p.dot', dry_run: true })).status).toBe(
        201,
      );
      for (const dotPath of ['../secret.dot', path.join(outside, 'secret.dot'), 'link.dot']) {
        const refused = await server.json('POST', '/pipelines', { dot_path: dotPath, dry_run: true });
        expect(refused.status, dotPath).toBe(403);
      }
      expect(
        (await server.json('POST', '/pipelines', { dot_path: 'missing.dot', dry_run: true })).status,
      ).toBe(404);
    } finally {
      fs.rmSync(allowed, { recursive: true, force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('attractor serve: auth', () => {
  it('refuses to listen beyond loopback without a token', async () => {
    await expect(startServer({ host: '0.0.0.0', port: 0, dataDir: os.tmpdir() })).rejects.toThrow(/--token/);
  });

  it('with a token, requests need the bearer header (401 without or wrong); health checks do not', async () => {
    const server = await testServer({ token: 's3cret' });
    expect((await server.json('GET', '/pipelines')).status).toBe(401);
    expect((await server.json('GET', '/pipelines', undefined, { authorization: 'Bearer nope' })).status).toBe(
      401,
    );
    expect(
      (await server.json('GET', '/pipelines', undefined, { authorization: 'Bearer s3cret' })).status,
    ).toBe(200);
    expect((await server.json('GET', '/healthz')).status).toBe(200);
  });

  it('sends no CORS headers unless --cors-origin is given', async () => {
    const plain = await testServer();
    const a = await fetch(`${plain.url}/pipelines`, { headers: { origin: 'http://evil.example' } });
    expect(a.headers.get('access-control-allow-origin')).toBeNull();
    const withCors = await testServer({ corsOrigin: 'http://app.example' });
    const b = await fetch(`${withCors.url}/pipelines`, { headers: { origin: 'http://app.example' } });
    expect(b.headers.get('access-control-allow-origin')).toBe('http://app.example');
  });
});

describe('attractor serve: SSE', () => {
  it('streams every event in order with ids, then done; Last-Event-ID replays the rest; two subscribers agree', async () => {
    const server = await testServer();
    const { body } = await server.json('POST', '/pipelines', { dot_source: GATE_PIPELINE, dry_run: true });
    const url = `${server.url}/pipelines/${body.id}/events`;
    const untilDone = { until: (m: { data: Record<string, unknown> }) => m.data['kind'] === 'done' };
    const first = readSse(url, untilDone);
    const second = readSse(url, untilDone);
    const q = await pendingQuestion(server, body.id);
    await server.json('POST', `/pipelines/${body.id}/questions/${q.id}/answer`, { answer: 'S' });
    const [a, b] = await Promise.all([first, second]);
    const ids = a.filter((m) => m.id !== undefined).map((m) => m.id);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(a.at(-1)?.data).toEqual({ kind: 'done', status: 'completed' });
    expect(a.map((m) => m.data['kind'])).toEqual(b.map((m) => m.data['kind']));
    const kinds = a.map((m) => m.data['kind']);
    expect(kinds[0]).toBe('pipeline.start');
    expect(kinds).toContain('interview.start');
    for (const m of a.slice(0, -1))
      expect(m.data).toMatchObject({
        kind: expect.any(String),
        data: expect.any(Object),
        timestamp: expect.any(String),
      });
    const replay = await readSse(url, { headers: { 'last-event-id': '5' }, ...untilDone });
    expect(replay.filter((m) => m.id !== undefined).map((m) => m.id)).toEqual(ids.slice(5));
    const late = await readSse(url, untilDone);
    expect(late.length).toBe(a.length);
  });
});

describe('attractor serve: resuming a failed run', () => {
  it('starts again at the node that failed once the cause is gone; a completed run is 409', async () => {
    const flagDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-resume-failed-'));
    const flag = path.join(flagDir, 'provider-is-back');
    const server = await testServer(
      { allowTools: true },
      { sandbox: serverSandbox(true, undefined, 'serve') },
    );
    const dot = `digraph flaky {
      start [shape=Mdiamond]
      exit [shape=Msquare]
      first [shape=parallelogram, tool_command="echo first >> ${flagDir}/ran"]
      call [shape=parallelogram, tool_command="test -e ${flag}"]
      // The commands watch a folder outside the working tree: a server started --unsandboxed honours this.
      sandbox="off"
      start -> first -> call -> exit
    }`;
    const { body } = await server.json('POST', '/pipelines', { dot_source: dot, scenario: {} });
    expect(await finished(server, body.id)).toMatchObject({ status: 'failed' });

    fs.writeFileSync(flag, '');
    const resumed = await server.json('POST', `/pipelines/${body.id}/resume`);
    expect(resumed.status).toBe(202);
    expect(await finished(server, body.id)).toMatchObject({ status: 'completed', stopped_at: 'exit' });
    // The node before the failure ran once: the resume started at the node that failed.
    expect(fs.readFileSync(path.join(flagDir, 'ran'), 'utf8')).toBe('first\n');
    fs.rmSync(flagDir, { recursive: true, force: true });

    const again = await server.json('POST', `/pipelines/${body.id}/resume`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('NOT_RESUMABLE');
  });
});
