import { readFileSync, writeFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLineFile } from '../../src/shared/line-file.js';
import { type CommitBatch, CommitFailure, WriteLane } from '../../src/shared/write-lane.js';
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

  it('starts the batches of every lane given work in one turn together (their fsyncs commit together)', async () => {
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
    const lane = new WriteLane({ onFailure: (failure) => failures.push(failure) });
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

  it.each([
    [undefined, true],
    [true, true],
    [false, false],
  ])('a lane made with durable=%s tells its operations durable=%s', async (durable, expected) => {
    const lane = new WriteLane(durable === undefined ? {} : { durable });
    let seen: CommitBatch | undefined;
    lane.push('looking', (batch) => {
      seen = batch;
    });
    await lane.settled();
    expect(lane.durable).toBe(expected);
    expect(seen?.durable).toBe(expected);
  });

  it('discards what is queued: nothing of it is ever written', async () => {
    const file = join(tempDir('attractor-lane-'), 'never.jsonl');
    const lane = new WriteLane();
    const lines = openLineFile(file, lane, { sync: true });
    lines.append('{"a":1}');
    lane.discard();
    await tick();
    await tick();
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
  });
});
