import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLineFile, readLines } from '../../src/shared/line-file.js';
import { WriteLane } from '../../src/shared/write-lane.js';
import { tempDir as makeTempDir } from '../helpers/temp-dir.js';

const tempDir = () => makeTempDir('attractor-lines-');

describe('openLineFile', () => {
  it('appends one line per record on its lane, making the folder and the file with the first write', async () => {
    const file = path.join(tempDir(), 'deep', 'records.jsonl');
    const lane = new WriteLane();
    const lines = openLineFile(file, lane, { sync: true });
    lines.append('{"n":1}');
    lines.append('{"n":2}');
    // Nothing is written in the turn that appended.
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
    lines.close();
    await lane.settled();
    expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n');
  });

  it.each([
    ['after a whole line', '{"n":1}\n', '{"n":1}\n{"n":2}\n'],
    ['after a torn line', '{"n":1}\n{"n":', '{"n":1}\n{"n":\n{"n":2}\n'],
  ])('a file an earlier process left: appends %s', async (_, before, after) => {
    const file = path.join(tempDir(), 'records.jsonl');
    writeFileSync(file, before);
    const lane = new WriteLane({ durable: false });
    const lines = openLineFile(file, lane, { sync: true });
    lines.append('{"n":2}');
    lines.close();
    await lane.settled();
    expect(readFileSync(file, 'utf8')).toBe(after);
    expect(readLines(readFileSync(file, 'utf8'), (l) => JSON.parse(l) as { n: number })).toEqual([
      { n: 1 },
      { n: 2 },
    ]);
  });

  it('appends lines queued back to back in one write, and keeps order across files', async () => {
    const dir = tempDir();
    const first = path.join(dir, 'first.jsonl');
    const second = path.join(dir, 'second.jsonl');
    const lane = new WriteLane();
    const a = openLineFile(first, lane, { sync: true });
    const b = openLineFile(second, lane, { sync: false });
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
    expect(order).toEqual(['{"n":1}\n{"n":2}\n', '{"m":1}\n']);
    expect(readFileSync(first, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
    expect(a.size).toBe(Buffer.byteLength('{"n":1}\n{"n":2}\n{"n":3}\n'));
  });

  it('counts the bytes appended and empties on truncate', async () => {
    const file = path.join(tempDir(), 'journal.jsonl');
    const lane = new WriteLane();
    const lines = openLineFile(file, lane, { sync: true });
    lines.append('{"n":1}');
    expect(lines.size).toBe('{"n":1}\n'.length);
    lines.truncate();
    expect(lines.size).toBe(0);
    await lane.settled();
    expect(readFileSync(file, 'utf8')).toBe('');
    lines.append('{"n":2}');
    lines.close();
    await lane.settled();
    expect(readFileSync(file, 'utf8')).toBe('{"n":2}\n');
  });

  it('remove() deletes the file after its last line', async () => {
    const file = path.join(tempDir(), 'journal.jsonl');
    const lane = new WriteLane();
    const lines = openLineFile(file, lane, { sync: true });
    lines.append('{"n":1}');
    lines.remove();
    await lane.settled();
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
  });
});
