import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServers, GATE_PIPELINE, type TestServer, testServer, waitFor } from './server-fixtures.js';

afterEach(closeServers);

/** Fails at `broken` (its scenario says so every time): a failed run a resume starts again there. */
const FAILING = `digraph failing {
  start [shape=Mdiamond]
  broken [prompt="Break"]
  exit [shape=Msquare]
  start -> broken -> exit
}
`;
const FAILS = { nodes: { broken: [{ outcome: 'fail', failure_reason: 'broken on purpose' }] } };

type Event = { kind: string; data: Record<string, unknown> };
/** The run's events so far (a line still being written is left for the next look). */
const events = (runDir: string): Event[] =>
  fs
    .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line) as Event);
const dataOf = (runDir: string, kind: string) =>
  events(runDir)
    .filter((e) => e.kind === kind)
    .map((e) => e.data);

async function until(server: TestServer, id: string, statuses: string[], auth: Record<string, string>) {
  return waitFor(
    async () => {
      const { body } = await server.json('GET', `/pipelines/${id}`, undefined, auth);
      return statuses.includes(body.status) ? body : undefined;
    },
    `run ${id} to be ${statuses.join(' or ')}`,
  );
}

async function pendingQuestion(server: TestServer, id: string, auth: Record<string, string>) {
  return waitFor(async () => {
    const { body } = await server.json('GET', `/pipelines/${id}/questions`, undefined, auth);
    return body[0];
  }, 'a pending question');
}

// Each server's requests say who they are the one way it knows: its single token, or nothing.
describe.each([
  { server: 'with --token', token: 's3cret', who: 'token' },
  { server: 'without a token', token: undefined, who: 'anonymous' },
])('attractor serve $server: who did it', ({ token, who }) => {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const start = async (server: TestServer, source: string, scenario?: unknown) => {
    const created = await server.json(
      'POST',
      '/pipelines',
      { dot_source: source, ...(scenario ? { scenario } : { dry_run: true }) },
      auth,
    );
    expect(created.status).toBe(201);
    expect(created.body.started_by).toBe(who);
    return created.body.id as string;
  };

  it('records who started the run and who answered its gate, in its record and its events', async () => {
    const server = await testServer({ ...(token ? { token } : {}) });
    const id = await start(server, GATE_PIPELINE);
    const question = await pendingQuestion(server, id, auth);
    const answered = await server.json(
      'POST',
      `/pipelines/${id}/questions/${question.id}/answer`,
      { answer: 'S' },
      auth,
    );
    expect(answered.status).toBe(200);
    const done = await until(server, id, ['completed'], auth);
    expect(done.started_by).toBe(who);
    expect(dataOf(done.run_dir, 'pipeline.start')).toEqual([expect.objectContaining({ started_by: who })]);
    expect(dataOf(done.run_dir, 'interview.complete')).toEqual([
      expect.objectContaining({ key: 'S', answered_by: who }),
    ]);
    const listed = await server.json('GET', '/pipelines', undefined, auth);
    expect(listed.body.pipelines[0]).toMatchObject({ id, started_by: who });

    const fork = await server.json('POST', `/pipelines/${id}/fork`, { from_node: 'ship' }, auth);
    expect(fork.status).toBe(201);
    const forked = await until(server, fork.body.id, ['completed'], auth);
    expect(forked).toMatchObject({ started_by: who, forked_by: who });
    expect(dataOf(forked.run_dir, 'pipeline.resume')[0]).toMatchObject({
      forked_from: { run_id: id, node: 'ship' },
      forked_by: who,
    });
  });

  it('records who cancelled a run at its gate', async () => {
    const server = await testServer({ ...(token ? { token } : {}) });
    const id = await start(server, GATE_PIPELINE);
    await pendingQuestion(server, id, auth);
    expect((await server.json('POST', `/pipelines/${id}/cancel`, {}, auth)).status).toBe(200);
    const cancelled = await until(server, id, ['cancelled'], auth);
    expect(cancelled.cancelled_by).toBe(who);
    expect(dataOf(cancelled.run_dir, 'pipeline.cancelled')).toEqual([
      expect.objectContaining({ cancelled_by: who }),
    ]);
  });

  it('records who resumed a failed run', async () => {
    const server = await testServer({ ...(token ? { token } : {}) });
    const id = await start(server, FAILING, FAILS);
    await until(server, id, ['failed'], auth);
    const resumed = await server.json('POST', `/pipelines/${id}/resume`, {}, auth);
    expect(resumed.status).toBe(202);
    expect(resumed.body.resumed_by).toBe(who);
    const again = await until(server, id, ['failed'], auth);
    expect(again).toMatchObject({ started_by: who, resumed_by: who });
    expect(dataOf(again.run_dir, 'pipeline.resume')).toEqual([expect.objectContaining({ resumed_by: who })]);
  });
});
