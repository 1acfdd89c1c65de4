import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileAuditLog } from '../../src/server/audit/file-audit-log.js';
import { PostgresAuditLog } from '../../src/server/audit/postgres-audit-log.js';
import { PG_AVAILABLE, PG_REQUIRED, postgresClusterForFile } from '../helpers/postgres-cluster.js';
import { tempDir } from '../helpers/temp-dir.js';
import { SAMPLE_EVENTS } from '../server/audit/audit-fixtures.js';
import { runCli, STACK_LINE } from './run-cli.js';

async function dataDirWithTrail(): Promise<{ dir: string; file: string }> {
  const dir = tempDir();
  const log = new FileAuditLog(dir);
  for (const event of SAMPLE_EVENTS) await log.append(event);
  await log.close();
  return { dir, file: log.where };
}

function rewriteLine(file: string, index: number, change: (line: string) => string): void {
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  lines[index] = change(lines[index] as string);
  writeFileSync(file, `${lines.join('\n')}\n`);
}

describe('attractor audit', () => {
  it('prints the trail as a table: who, what, what about, and the outcome', async () => {
    const { dir } = await dataDirWithTrail();
    const { code, stdout, stderr } = await runCli(['audit', '--data-dir', dir]);
    expect([code, stderr]).toEqual([0, '']);
    const rows = stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^AT +WHO +ACTION +RUN +ABOUT +OUTCOME$/);
    expect(rows).toHaveLength(SAMPLE_EVENTS.length + 1);
    expect(rows[2]).toMatch(/ ada +answer +r1 +question q1 +ok 200$/);
    expect(rows[3]).toMatch(/ ci +cancel +r2 +- +refused 404 RUN_NOT_FOUND$/);
    expect(rows[4]).toMatch(/ fork +r1 +node plan, new run r3 +ok 201$/);
  });

  it('--json prints one entry a line; --since leaves out older ones', async () => {
    const { dir } = await dataDirWithTrail();
    const all = await runCli(['audit', '--data-dir', dir, '--json']);
    const entries = all.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(entries[3]).toMatchObject({ action: 'fork', node: 'plan', new_run_id: 'r3' });
    const future = await runCli(['audit', '--data-dir', dir, '--json', '--since', '2999-01-01']);
    expect([future.code, future.stdout]).toEqual([0, '']);
    const past = await runCli(['audit', '--data-dir', dir, '--json', '--since', '2000-01-01']);
    expect(past.stdout).toBe(all.stdout);
  });

  it('--verify exits 0 with the head hash when the chain holds', async () => {
    const { dir, file } = await dataDirWithTrail();
    const { code, stdout } = await runCli(['audit', '--data-dir', dir, '--verify']);
    const head = JSON.parse(readFileSync(file, 'utf8').trimEnd().split('\n').at(-1) as string).hash;
    expect(code).toBe(0);
    expect(stdout).toBe(`${file}: 5 entries, chain intact; head ${head}\n`);
  });

  it.each([
    ['an edited line', (file: string) => rewriteLine(file, 2, (l) => l.replace('"ci"', '"cj"')), 3, 'edited'],
    // The emptied line is dropped below: the file goes on without it.
    ['a deleted line', (file: string) => rewriteLine(file, 1, () => ''), 2, 'missing'],
    [
      'two swapped lines',
      (file: string) => {
        const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
        writeFileSync(file, `${[lines[0], lines[3], lines[2], lines[1], lines[4]].join('\n')}\n`);
      },
      2,
      'reordered',
    ],
  ])('--verify exits 1 naming the line of %s', async (_what, tamper, line, reason) => {
    const { dir, file } = await dataDirWithTrail();
    tamper(file);
    dropEmpty(file);
    const { code, stdout, stderr } = await runCli(['audit', '--data-dir', dir, '--verify']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(new RegExp(`^attractor audit: .*audit\\.jsonl: line ${line}: ${reason}: `));
    expect(stderr).not.toMatch(STACK_LINE);
    // Listing a broken trail still shows its entries, and fails too.
    const listed = await runCli(['audit', '--data-dir', dir]);
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain(`line ${line}: ${reason}`);
  });

  it('an empty trail says so; a --since that is not a date is a usage error', async () => {
    const dir = tempDir();
    expect(await runCli(['audit', '--data-dir', dir])).toMatchObject({
      code: 0,
      stdout: `No audit entries in ${dir}/audit.jsonl.\n`,
    });
    const bad = await runCli(['audit', '--data-dir', dir, '--since', 'yesterday-ish']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since yesterday-ish: not a date');
  });
});

const cluster = postgresClusterForFile();

describe.runIf(PG_AVAILABLE || PG_REQUIRED)('attractor audit --store', () => {
  it('prints and verifies the trail the servers keep in PostgreSQL', async () => {
    const url = await cluster.createDatabase('audit_cli');
    const log = await PostgresAuditLog.open(url);
    try {
      for (const event of SAMPLE_EVENTS) await log.append(event);
    } finally {
      await log.close();
    }
    const listed = await runCli(['audit', '--store', url, '--json']);
    expect(
      listed.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).who),
    ).toEqual(SAMPLE_EVENTS.map((e) => e.who));
    const verified = await runCli(['audit', '--store', url, '--verify']);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(
      /^PostgreSQL table attractor\.audit_log: 5 entries, chain intact; head [0-9a-f]{64}\n$/,
    );
  });
});

function dropEmpty(file: string): void {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  writeFileSync(file, `${lines.join('\n')}\n`);
}
