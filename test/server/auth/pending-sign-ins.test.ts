import { describe, expect, it } from 'vitest';
import { PendingSignIns } from '../../../src/server/auth/pending-sign-ins.js';

const sign = (n: number) => ({ verifier: `v${n}`, returnTo: `/#/runs/${n}` });

describe('PendingSignIns', () => {
  it('gives a started sign-in back once, with its verifier and return path', () => {
    const pending = new PendingSignIns({ ttlMs: 1_000, capacity: 10 });
    pending.add('s1', sign(1), 0);
    expect(pending.take('s1', 500)).toEqual(sign(1));
    expect(pending.take('s1', 500)).toBeUndefined();
    expect(pending.take('never-started', 500)).toBeUndefined();
  });

  it('refuses a sign-in that took longer than its time, and forgets expired ones when another starts', () => {
    const pending = new PendingSignIns({ ttlMs: 1_000, capacity: 10 });
    pending.add('old', sign(1), 0);
    pending.add('older-too', sign(2), 100);
    expect(pending.take('old', 1_000)).toBeUndefined();
    pending.add('new', sign(3), 1_200);
    expect(pending.size).toBe(1);
    expect(pending.take('new', 1_300)).toEqual(sign(3));
  });

  it('never keeps more than its capacity: a flood of /signin pushes out the oldest', () => {
    const pending = new PendingSignIns({ ttlMs: 60_000, capacity: 3 });
    for (let n = 1; n <= 1_000; n++) pending.add(`s${n}`, sign(n), n);
    expect(pending.size).toBe(3);
    expect(pending.take('s997', 2_000)).toBeUndefined();
    expect(pending.take('s998', 2_000)).toEqual(sign(998));
    expect(pending.take('s1000', 2_000)).toEqual(sign(1000));
  });
});
