import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PostgresAuditLog } from '../../../src/server/audit/postgres-audit-log.js';
import { verifyAuditChain } from '../../../src/server/audit/verify-audit-chain.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../../helpers/postgres-cluster.js';
import { SAMPLE_EVENTS } from './audit-fixtures.js';

const cluster = postgresClusterForFile();

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('the PostgreSQL audit log', () => {
  it('two servers appending at once keep one chain, which verifies', async () => {
    const url = await cluster.createDatabase('audit_two_servers');
    const [a, b] = await Promise.all([PostgresAuditLog.open(url), PostgresAuditLog.open(url)]);
    try {
      await Promise.all(
        [...SAMPLE_EVENTS, ...SAMPLE_EVENTS].map((event, i) => (i % 2 === 0 ? a : b).append(event)),
      );
      const verdict = verifyAuditChain(await b.lines());
      expect(verdict.ok).toBe(true);
      expect(verdict.entries.map((e) => e.seq)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
      expect(verdict.entries.filter((e) => e.action === 'fork')).toHaveLength(2);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a row edited or deleted in the table breaks the chain at its line', async () => {
    const url = await cluster.createDatabase('audit_tampered');
    const log = await PostgresAuditLog.open(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const event of SAMPLE_EVENTS) await log.append(event);
      await client.query(
        `UPDATE attractor.audit_log SET line = replace(line, '"ada"', '"eve"') WHERE seq = 2`,
      );
      expect(verifyAuditChain(await log.lines())).toMatchObject({
        ok: false,
        break: { line: 2, reason: 'edited' },
      });
      await client.query('DELETE FROM attractor.audit_log WHERE seq = 2');
      expect(verifyAuditChain(await log.lines())).toMatchObject({
        ok: false,
        break: { line: 2, reason: 'missing' },
      });
    } finally {
      await client.end();
      await log.close();
    }
  });
});
