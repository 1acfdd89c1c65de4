import { afterEach, describe, expect, it } from 'vitest';
import { PostgresAuditLog } from '../../../src/server/audit/postgres-audit-log.js';
import { verifyAuditChain } from '../../../src/server/audit/verify-audit-chain.js';
import { localIdentity } from '../../../src/shared/identity.js';
import { runCli } from '../../cli/run-cli.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { createToken } from '../auth/token-fixtures.js';
import { closeServers, GATE_PIPELINE, testServer } from '../server-fixtures.js';

const cluster = postgresClusterForFile();

afterEach(closeServers);

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('attractor serve --store: the shared audit trail', () => {
  it('two servers on one database append their requests to one chain', async () => {
    const url = await cluster.createDatabase('audit_servers');
    const [a, b] = [await testServer({ store: url }), await testServer({ store: url })];
    const started = await a.json('POST', '/pipelines', { dot_source: GATE_PIPELINE, dry_run: true });
    expect(started.status).toBe(201);
    // No worker takes it: the other server cancels it while queued.
    const cancelled = await b.json('POST', `/pipelines/${started.body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    const refused = await a.json('POST', '/pipelines/nope/resume');
    expect(refused.status).toBe(404);

    const log = await PostgresAuditLog.open(url);
    const verdict = verifyAuditChain(await log.lines());
    await log.close();
    expect(verdict.ok).toBe(true);
    expect(verdict.entries.map((e) => [e.action, e.run_id, e.outcome, e.status, e.error_code])).toEqual([
      ['start', started.body.id, 'ok', 201, undefined],
      ['cancel', started.body.id, 'ok', 200, undefined],
      ['resume', 'nope', 'refused', 404, refused.body.error.code],
    ]);
  });

  it('attractor token --store appends its creates and revokes to the same table', async () => {
    const url = await cluster.createDatabase('audit_tokens');
    await createToken(['--store', url], 'ci', 'approver');
    expect((await runCli(['token', 'revoke', 'ci', '--store', url])).code).toBe(0);
    const verify = await runCli(['audit', '--verify', '--store', url]);
    expect(verify.stdout).toMatch(/2 entries, chain intact/);
    const log = await PostgresAuditLog.open(url);
    const { entries } = verifyAuditChain(await log.lines());
    await log.close();
    expect(entries.map((e) => [e.who, e.action, e.subject, e.role, e.outcome])).toEqual([
      [localIdentity(), 'token-create', 'ci', 'approver', 'ok'],
      [localIdentity(), 'token-revoke', 'ci', 'approver', 'ok'],
    ]);
  });
});
