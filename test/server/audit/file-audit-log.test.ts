import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileAuditLog } from '../../../src/server/audit/file-audit-log.js';
import { verifyAuditChain } from '../../../src/server/audit/verify-audit-chain.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { SAMPLE_EVENTS } from './audit-fixtures.js';

describe('the file audit log', () => {
  it('is empty until the first append, then <data dir>/audit.jsonl holds one entry a line', async () => {
    const dir = tempDir();
    const log = new FileAuditLog(dir);
    expect(await log.lines()).toEqual([]);
    expect(existsSync(path.join(dir, 'audit.jsonl'))).toBe(false);
    await log.append(SAMPLE_EVENTS[0] as (typeof SAMPLE_EVENTS)[number]);
    const text = readFileSync(path.join(dir, 'audit.jsonl'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(JSON.parse(text)).toMatchObject({ ...SAMPLE_EVENTS[0], seq: 1, prev: '0'.repeat(64) });
  });

  it('appends made at once stay one chain, and a reopened log goes on from its last line', async () => {
    const dir = tempDir();
    const first = new FileAuditLog(dir);
    await Promise.all(SAMPLE_EVENTS.map((e) => first.append(e)));
    await first.close();
    const second = new FileAuditLog(dir);
    await second.append({ who: 'ada', action: 'resume', run_id: 'r1', outcome: 'ok', status: 202 });
    const verdict = verifyAuditChain(await second.lines());
    expect(verdict.ok).toBe(true);
    expect(verdict.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(verdict.entries.at(-1)).toMatchObject({ action: 'resume', who: 'ada' });
  });

  it('two writers taking turns (a server and a shell command) link to each other: one chain', async () => {
    const dir = tempDir();
    const [server, shell] = [new FileAuditLog(dir), new FileAuditLog(dir)];
    for (const [i, event] of SAMPLE_EVENTS.entries()) await (i % 2 === 0 ? server : shell).append(event);
    const verdict = verifyAuditChain(await server.lines());
    expect(verdict.ok).toBe(true);
    expect(verdict.entries.map((e) => e.who)).toEqual(SAMPLE_EVENTS.map((e) => e.who));
  });

  it('links past a last line longer than one read from the end', async () => {
    const dir = tempDir();
    const log = new FileAuditLog(dir);
    await log.append({ who: 'é'.repeat(20_000), action: 'sign-in', outcome: 'ok', status: 200 });
    await new FileAuditLog(dir).append(SAMPLE_EVENTS[0] as (typeof SAMPLE_EVENTS)[number]);
    expect(verifyAuditChain(await log.lines())).toMatchObject({ ok: true });
  });

  it('refuses to chain onto a torn last line (AUDIT_LOG_DAMAGED), and appends nothing', async () => {
    const dir = tempDir();
    const log = new FileAuditLog(dir);
    await log.append(SAMPLE_EVENTS[0] as (typeof SAMPLE_EVENTS)[number]);
    appendFileSync(log.where, '{"seq":2,"who":"half');
    const reopened = new FileAuditLog(dir);
    await expect(reopened.append(SAMPLE_EVENTS[1] as (typeof SAMPLE_EVENTS)[number])).rejects.toMatchObject({
      code: 'AUDIT_LOG_DAMAGED',
    });
    expect(await reopened.lines()).toHaveLength(2);
  });
});
