import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ArtifactStore, FILE_BACKED_THRESHOLD_BYTES } from '../../src/shared/artifact-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const store = () => {
  const dir = mkdtempSync(join(tmpdir(), 'artifacts-'));
  dirs.push(dir);
  return { dir, store: new ArtifactStore(dir) };
};

describe('ArtifactStore', () => {
  it.each([
    { name: 'small', value: { ok: true }, fileBacked: false },
    {
      name: 'exactly at the threshold',
      value: 'x'.repeat(FILE_BACKED_THRESHOLD_BYTES - 2),
      fileBacked: false,
    },
    { name: 'just over', value: 'x'.repeat(FILE_BACKED_THRESHOLD_BYTES - 1), fileBacked: true },
  ])('$name values: file-backed=$fileBacked, retrieved intact', ({ name, value, fileBacked }) => {
    const { dir, store: s } = store();
    const info = s.store(name, value);
    expect(info.is_file_backed).toBe(fileBacked);
    expect(existsSync(join(dir, 'artifacts', `${info.id}.json`))).toBe(fileBacked);
    expect(s.retrieve(info.id)).toEqual(value);
    expect(info.size_bytes).toBe(Buffer.byteLength(JSON.stringify(value)));
  });

  it('a store reopened on the same run directory (a resumed run) retrieves what was stored before', () => {
    const { dir, store: first } = store();
    const small = first.store('summary', { lines: 3 });
    const large = first.store('report', 'y'.repeat(FILE_BACKED_THRESHOLD_BYTES * 2));
    const gone = first.store('scratch', 1);
    first.remove(gone.id);
    const reopened = new ArtifactStore(dir);
    expect(reopened.retrieve(small.id)).toEqual({ lines: 3 });
    expect(reopened.retrieve(large.id)).toHaveLength(FILE_BACKED_THRESHOLD_BYTES * 2);
    expect(reopened.has(gone.id)).toBe(false);
    expect(reopened.list().map((a) => a.id)).toEqual([small.id, large.id]);
    // Ids keep counting: a new artifact never takes the id of one stored before the interruption.
    expect(reopened.store('scratch', 2).id).not.toBe(gone.id);
  });

  it('lists, removes and clears; an unknown id is "Artifact not found"', () => {
    const { dir, store: s } = store();
    const big = s.store('report', 'y'.repeat(200_000));
    const small = s.store('note', 'hi');
    expect(s.list().map((i) => i.name)).toEqual(['report', 'note']);
    expect(JSON.parse(readFileSync(join(dir, 'artifacts', `${big.id}.json`), 'utf8'))).toHaveLength(200_000);
    expect(s.remove(big.id)).toBe(true);
    expect(existsSync(join(dir, 'artifacts', `${big.id}.json`))).toBe(false);
    expect(s.has(small.id)).toBe(true);
    s.clear();
    expect(s.list()).toEqual([]);
    expect(() => s.retrieve(small.id)).toThrow(/Artifact not found/);
  });
});
