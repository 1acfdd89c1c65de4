import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileAuditLog } from '../../../src/server/audit/file-audit-log.js';
import { verifyAuditChain } from '../../../src/server/audit/verify-audit-chain.js';
import { runCli } from '../../cli/run-cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { bearer, createToken } from '../auth/token-fixtures.js';
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

describe('attractor serve: requests the guards refuse are audited too', () => {
  it('records 401 (no token, unknown, revoked), 403 (a missing role) and four-eyes refusals', async () => {
    const dataDir = tempDir('attractor-serve-');
    const where = ['--data-dir', dataDir] as const;
    const ada = await createToken([...where], 'ada', 'admin');
    const viewer = await createToken([...where], 'viewer-bot', 'viewer');
    const old = await createToken([...where], 'old', 'operator');
    expect((await runCli(['token', 'revoke', 'old', ...where])).code).toBe(0);
    const server = await testServer({ dataDir, fourEyes: true });
    const start = { dot_source: GATE_PIPELINE, dry_run: true };

    const statuses = [
      (await server.json('POST', '/pipelines', start)).status,
      (await server.json('POST', '/pipelines', start, bearer('attr_not-a-token'))).status,
      (await server.json('POST', '/pipelines', start, bearer(old))).status,
      (await server.json('POST', '/pipelines/r1/cancel', {}, bearer(viewer))).status,
    ];
    expect(statuses).toEqual([401, 401, 401, 403]);
    const started = await server.json('POST', '/pipelines', start, bearer(ada));
    const run = started.body.id;
    const qid = await waitFor(async () => {
      const { body } = await server.json('GET', `/pipelines/${run}/questions`, undefined, bearer(ada));
      return body[0]?.id;
    }, 'a pending question');
    const own = await server.json(
      'POST',
      `/pipelines/${run}/questions/${qid}/answer`,
      { answer: 'S' },
      bearer(ada),
    );
    expect(own.status).toBe(403);

    const entries = (await trail(server)).filter((e) => !e.action.startsWith('token-'));
    expect(entries.map(({ seq, at, prev, hash, ...rest }) => rest)).toEqual([
      { who: 'anonymous', action: 'start', outcome: 'refused', status: 401, error_code: 'UNAUTHORIZED' },
      { who: 'anonymous', action: 'start', outcome: 'refused', status: 401, error_code: 'UNAUTHORIZED' },
      { who: 'old', action: 'start', outcome: 'refused', status: 401, error_code: 'UNAUTHORIZED' },
      {
        who: 'viewer-bot',
        action: 'cancel',
        run_id: 'r1',
        outcome: 'refused',
        status: 403,
        error_code: 'FORBIDDEN',
      },
      { who: 'ada', action: 'start', run_id: run, outcome: 'ok', status: 201 },
      {
        who: 'ada',
        action: 'answer',
        run_id: run,
        question_id: qid,
        outcome: 'refused',
        status: 403,
        error_code: 'FOUR_EYES',
      },
    ]);
  });

  it('records a failed sign-in and a sign-out', async () => {
    const dir = tempDir();
    const secret = path.join(dir, 'client-secret');
    writeFileSync(secret, 'a-client-secret\n');
    const server = await testServer({
      oidcIssuer: 'http://127.0.0.1:9',
      oidcClientId: 'attractor',
      oidcClientSecretFile: secret,
    });
    const callback = await fetch(`${server.url}/auth/callback?code=x&state=y`, { redirect: 'manual' });
    expect(callback.status).toBe(401);
    await callback.text();
    expect((await server.json('POST', '/signout', {})).status).toBe(401);
    const entries = await trail(server);
    expect(entries.map(({ seq, at, prev, hash, ...rest }) => rest)).toEqual([
      {
        who: 'anonymous',
        action: 'sign-in',
        outcome: 'refused',
        status: 401,
        error_code: 'SIGN_IN_COOKIE_MISSING',
      },
      { who: 'anonymous', action: 'sign-out', outcome: 'refused', status: 401, error_code: 'UNAUTHORIZED' },
    ]);
  });
});
