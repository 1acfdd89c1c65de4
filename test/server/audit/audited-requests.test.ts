import { afterEach, describe, expect, it } from 'vitest';
import { FileAuditLog } from '../../../src/server/audit/file-audit-log.js';
import { verifyAuditChain } from '../../../src/server/audit/verify-audit-chain.js';
import { closeServers, GATE_PIPELINE, type TestServer, testServer, waitFor } from '../server-fixtures.js';

afterEach(closeServers);

async function trail(server: TestServer) {
  const verdict = verifyAuditChain(await new FileAuditLog(server.dataDir).lines());
  expect(verdict.ok).toBe(true);
  return verdict.entries;
}

async function pendingQuestion(server: TestServer, run: string): Promise<string> {
  return waitFor(async () => {
    const { body } = await server.json('GET', `/pipelines/${run}/questions`);
    return body[0]?.id;
  }, 'a pending question');
}

describe('attractor serve: the audit trail of its requests', () => {
  it('records each state-changing request once, after its answer: who, what, and ok or refused', async () => {
    const server = await testServer();
    const started = await server.json('POST', '/pipelines', { dot_source: GATE_PIPELINE, dry_run: true });
    expect(started.status).toBe(201);
    const run = started.body.id;
    const badStart = await server.json('POST', '/pipelines', { dry_run: true });
    const qid = await pendingQuestion(server, run);
    const badAnswer = await server.json('POST', `/pipelines/${run}/questions/nope/answer`, { answer: 'S' });
    const answered = await server.json('POST', `/pipelines/${run}/questions/${qid}/answer`, { answer: 'S' });
    expect(answered.status).toBe(200);
    const badCancel = await server.json('POST', '/pipelines/no-such-run/cancel');
    // Reads are not audited.
    await server.json('GET', `/pipelines/${run}`);

    expect(badStart.status).toBe(400);
    expect(badAnswer.status).toBeGreaterThanOrEqual(400);
    expect(badCancel.status).toBe(404);
    const entries = await trail(server);
    expect(entries.map(({ seq, at, prev, hash, ...rest }) => rest)).toEqual([
      { who: 'anonymous', action: 'start', run_id: run, outcome: 'ok', status: 201 },
      {
        who: 'anonymous',
        action: 'start',
        outcome: 'refused',
        status: 400,
        error_code: badStart.body.error.code,
      },
      {
        who: 'anonymous',
        action: 'answer',
        run_id: run,
        question_id: 'nope',
        outcome: 'refused',
        status: badAnswer.status,
        error_code: badAnswer.body.error.code,
      },
      { who: 'anonymous', action: 'answer', run_id: run, question_id: qid, outcome: 'ok', status: 200 },
      {
        who: 'anonymous',
        action: 'cancel',
        run_id: 'no-such-run',
        outcome: 'refused',
        status: 404,
        error_code: badCancel.body.error.code,
      },
    ]);
    for (const e of entries) expect(Date.parse(e.at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('with --token, a fork records its node and the new run as `token`', async () => {
    const server = await testServer({ token: 's3cret' });
    const auth = { authorization: 'Bearer s3cret' };
    const { body: run } = await server.json(
      'POST',
      '/pipelines',
      { dot_source: GATE_PIPELINE, dry_run: true, auto_approve: true },
      auth,
    );
    await waitFor(async () => {
      const { body } = await server.json('GET', `/pipelines/${run.id}`, undefined, auth);
      return body.status === 'completed' ? true : undefined;
    }, 'the run to complete');
    const forked = await server.json('POST', `/pipelines/${run.id}/fork`, { from_node: 'plan' }, auth);
    expect(forked.status).toBe(201);
    const entries = await trail(server);
    expect(entries.map((e) => [e.who, e.action])).toEqual([
      ['token', 'start'],
      ['token', 'fork'],
    ]);
    expect(entries.at(-1)).toMatchObject({
      action: 'fork',
      run_id: run.id,
      node: 'plan',
      new_run_id: forked.body.id,
      outcome: 'ok',
      status: 201,
    });
  });
});
