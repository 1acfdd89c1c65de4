import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileAuditLog } from '../../../src/server/audit/file-audit-log.js';
import { type ChainBreakReason, verifyAuditChain } from '../../../src/server/audit/verify-audit-chain.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { SAMPLE_EVENTS } from './audit-fixtures.js';

async function storedLines(): Promise<string[]> {
  const log = new FileAuditLog(tempDir());
  for (const event of SAMPLE_EVENTS) await log.append(event);
  await log.close();
  return readFileSync(log.where, 'utf8').trimEnd().split('\n');
}

const edit = (line: string) => line.replace(/"who":"[^"]*"/, '"who":"mallory"');
const without = (lines: string[], i: number) => lines.filter((_, j) => j !== i);
const swapped = (lines: string[], i: number) => {
  const out = [...lines];
  [out[i], out[i + 1]] = [lines[i + 1] as string, lines[i] as string];
  return out;
};

type Tamper = [string, (lines: string[]) => string[], number, ChainBreakReason];
const n = SAMPLE_EVENTS.length;
const TAMPERS: Tamper[] = [
  ...Array.from(
    { length: n },
    (_, i): Tamper => [
      `edit line ${i + 1}`,
      (l) => l.map((x, j) => (j === i ? edit(x) : x)),
      i + 1,
      'edited',
    ],
  ),
  // Deleting the last line leaves a shorter chain that verifies: that needs the head kept elsewhere.
  ...Array.from(
    { length: n - 1 },
    (_, i): Tamper => [`delete line ${i + 1}`, (l) => without(l, i), i + 1, 'missing'],
  ),
  ['delete lines 2 and 3', (l) => without(without(l, 1), 1), 2, 'missing'],
  ...Array.from(
    { length: n - 1 },
    (_, i): Tamper => [`swap lines ${i + 1} and ${i + 2}`, (l) => swapped(l, i), i + 1, 'reordered'],
  ),
  ['repeat line 2 after line 3', (l) => [...l.slice(0, 3), l[1] as string, ...l.slice(3)], 4, 'inserted'],
  ['cut line 3 short', (l) => l.map((x, j) => (j === 2 ? x.slice(0, 40) : x)), 3, 'malformed'],
];

describe('verifyAuditChain', () => {
  it('accepts the chain as written, and its head is the last entry hash', async () => {
    const lines = await storedLines();
    const verdict = verifyAuditChain(lines);
    expect(verdict.ok).toBe(true);
    expect(verdict.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(verdict.ok && verdict.head).toBe(JSON.parse(lines.at(-1) as string).hash);
  });

  it.each(TAMPERS)('%s: fails at line %i (%s)', async (_name, tamper, line, reason) => {
    const verdict = verifyAuditChain(tamper(await storedLines()));
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.break).toMatchObject({ line, reason });
    expect(!verdict.ok && verdict.break.message).toMatch(new RegExp(`^line ${line}: ${reason}: `));
  });

  it('an edited line whose own hash is recomputed breaks the link of the line after it', async () => {
    const { entryHash } = await import('../../../src/server/audit/audit-chain.js');
    const lines = await storedLines();
    const forged = { ...JSON.parse(lines[1] as string), who: 'mallory' };
    forged.hash = entryHash(forged);
    lines[1] = JSON.stringify(forged);
    const verdict = verifyAuditChain(lines);
    expect(!verdict.ok && verdict.break).toMatchObject({ line: 3, reason: 'edited' });
  });
});
