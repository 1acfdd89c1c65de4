import { readFileSync, writeFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CommitFailure, WriteLane } from '../../src/shared/commit-queue.js';
import { openQueuedLineFile } from '../../src/shared/queued-line-file.js';
import { tempDir } from '../helpers/temp-dir.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('WriteLane', () => {
  it('runs its operations in the order they were pushed, off the caller’s turn', async () => {
    const file = join(tempDir('attractor-lane-'), 'order.txt');
    writeFileSync(file, '');
    const lane = new WriteLane();
    for (const word of ['a', 'b', 'c']) lane.push(`writing ${word}`, () => appendFile(file, word));
    // Nothing is written while the turn that queued it runs.
    expect(readFileSync(file, 'utf8')).toBe('');
    await lane.settled();
    expect(readFileSync(file, 'utf8')).toBe('abc');
  });

  it('starts the batches of every lane given work in one turn together (one commit for all)', async () => {
    const started: string[] = [];
    const lanes = [new WriteLane(), new WriteLane(), new WriteLane()];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    for (const [i, lane] of lanes.entries()) {
      lane.push(`op ${i}`, async () => {
        started.push(`lane ${i}`);
        await held;
      });
    }
    await tick();
    await tick();
    // All three are under way at once: none waits for another's disk.
    expect(started).toEqual(['lane 0', 'lane 1', 'lane 2']);
    release();
    await Promise.all(lanes.map((lane) => lane.settled()));
  });

  it('gathers what is pushed during a batch into the next one, and settled() covers only what came before', async () => {
    const lane = new WriteLane();
    const seen: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    lane.push('first', async () => {
      seen.push('first');
      await held;
    });
    await tick();
    const firstDone = lane.settled();
    lane.push('second', () => {
      seen.push('second');
    });
    lane.push('third', () => {
      seen.push('third');
    });
    const allDone = lane.settled();
    release();
    await firstDone;
    await allDone;
    expect(seen).toEqual(['first', 'second', 'third']);
    expect(lane.idle).toBe(true);
  });

  it('stops at its first failure: later operations never run, settled() rejects, onFailure hears it once', async () => {
    const failures: CommitFailure[] = [];
    const lane = new WriteLane((failure) => failures.push(failure));
    let ranAfter = false;
    lane.push('writing the checkpoint x', () => {
      throw new Error('disk full');
    });
    lane.push('writing y', () => {
      ranAfter = true;
    });
    await expect(lane.settled()).rejects.toMatchObject({ what: 'writing the checkpoint x' });
    lane.push('writing z', () => {
      ranAfter = true;
    });
    await expect(lane.settled()).rejects.toBeInstanceOf(CommitFailure);
    expect(ranAfter).toBe(false);
    expect(failures.map((f) => f.message)).toEqual(['writing the checkpoint x failed: disk full']);
  });

  it('discards what is queued: nothing of it is ever written', async () => {
    const file = join(tempDir('attractor-lane-'), 'never.jsonl');
    const lane = new WriteLane();
    const lines = openQueuedLineFile(file, lane, { durable: true });
    lines.append('{"a":1}');
    lane.discard();
    await tick();
    await tick();
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
  });
});

describe('openQueuedLineFile', () => {
  it('appends lines queued back to back in one write, ends a torn line first, and keeps order across files', async () => {
    const dir = tempDir('attractor-lane-');
    const first = join(dir, 'first.jsonl');
    const second = join(dir, 'second.jsonl');
    writeFileSync(first, '{"torn"');
    const lane = new WriteLane();
    const a = openQueuedLineFile(first, lane, { durable: true });
    const b = openQueuedLineFile(second, lane, { durable: false });
    const order: string[] = [];
    a.append('{"n":1}');
    a.append('{"n":2}');
    b.append('{"m":1}');
    lane.push('observe', () => {
      order.push(readFileSync(first, 'utf8'), readFileSync(second, 'utf8'));
    });
    a.append('{"n":3}');
    a.close();
    b.close();
    await lane.settled();
    // The lines before the observer were on disk when it ran; the one after was not.
    expect(order).toEqual(['{"torn"\n{"n":1}\n{"n":2}\n', '{"m":1}\n']);
    expect(readFileSync(first, 'utf8')).toBe('{"torn"\n{"n":1}\n{"n":2}\n{"n":3}\n');
    expect(a.size).toBe(Buffer.byteLength('{"n":1}\n{"n":2}\n{"n":3}\n'));
  });

  it('remove() deletes the file after its last line', async () => {
    const file = join(tempDir('attractor-lane-'), 'journal.jsonl');
    const lane = new WriteLane();
    const lines = openQueuedLineFile(file, lane);
    lines.append('{"n":1}');
    lines.remove();
    await lane.settled();
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
  });
});
