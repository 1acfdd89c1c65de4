import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileRunStore } from '../../src/server/file-run-store.js';
import type { RunRecord } from '../../src/server/run-record.js';
import { tempDir as makeTempDir } from '../helpers/temp-dir.js';

const tempDir = (): string => makeTempDir('attractor-store-');

const record = (id: string, created: string, status: RunRecord['status'] = 'completed'): RunRecord => ({
  id,
  name: 'p',
  goal: '',
  status,
  created_at: created,
  updated_at: created,
  source_file: '<inline>',
  options: { dry_run: true, auto_approve: false },
});

describe('FileRunStore', () => {
  it('writes behind: a file changed twice before its turn is written once, with the newest content', async () => {
    const dir = tempDir();
    const store = new FileRunStore(dir);
    store.create(record('a', '2026-01-01T00:00:00.000Z', 'running'), 'digraph a {}');
    store.update('a', { status: 'paused' });
    store.update('a', { status: 'completed' });
    const file = path.join(dir, 'runs', 'a', 'record.json');
    // Nothing on disk during the turn that changed it: the event loop did not wait for the disk.
    expect(fs.existsSync(file)).toBe(false);
    await store.flush('a');
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ status: 'completed' });
  });

  it('keeps records, sources and questions across a reopen (the server restarts)', async () => {
    const dir = tempDir();
    const store = new FileRunStore(dir);
    store.create(record('a', '2026-01-01T00:00:00.000Z', 'running'), 'digraph a {}');
    store.update('a', { status: 'paused', stopped_at: 'x' });
    store.saveQuestions('a', [
      {
        id: 'gate-1',
        stage: 'gate',
        text: 'Ship?',
        type: 'multiple_choice',
        options: [{ key: 'Y', label: 'Yes' }],
        asked_at: 'now',
        status: 'pending',
      },
    ]);
    // Written behind: memory answers at once, the disk once flushed.
    expect(store.get('a')).toMatchObject({ status: 'paused' });
    expect(store.source('a')).toBe('digraph a {}');
    await store.flush();
    const reopened = new FileRunStore(dir);
    expect(reopened.get('a')).toMatchObject({ status: 'paused', stopped_at: 'x' });
    expect(reopened.source('a')).toBe('digraph a {}');
    expect(reopened.questions('a').map((q) => q.id)).toEqual(['gate-1']);
    const leftovers = fs.readdirSync(path.join(dir, 'runs', 'a')).filter((f) => f.endsWith('.tmp'));
    expect(leftovers).toEqual([]);
  });

  it('close() resolves once everything written behind is on disk', async () => {
    const dir = tempDir();
    const store = new FileRunStore(dir);
    store.create(record('a', '2026-01-01T00:00:00.000Z', 'running'), 'digraph a {}');
    store.create(record('b', '2026-01-01T00:00:01.000Z', 'running'), 'digraph b {}');
    store.update('a', { status: 'interrupted' });
    store.saveQuestions('b', []);
    await store.close();
    const read = (id: string, file: string) => fs.readFileSync(path.join(dir, 'runs', id, file), 'utf8');
    expect(JSON.parse(read('a', 'record.json'))).toMatchObject({ status: 'interrupted' });
    expect(read('b', 'source.dot')).toBe('digraph b {}');
    expect(JSON.parse(read('b', 'questions.json'))).toEqual([]);
  });

  it('lists newest first, filters by status and pages with a cursor', async () => {
    const store = new FileRunStore(tempDir());
    for (let i = 0; i < 5; i++) {
      store.create(record(`r${i}`, `2026-01-01T00:00:0${i}.000Z`, i % 2 ? 'failed' : 'completed'), 'x');
    }
    const first = store.list({ limit: 2 });
    expect(first.runs.map((r) => r.id)).toEqual(['r4', 'r3']);
    const second = store.list({ limit: 2, ...(first.next_cursor ? { cursor: first.next_cursor } : {}) });
    expect(second.runs.map((r) => r.id)).toEqual(['r2', 'r1']);
    const last = store.list({ limit: 2, ...(second.next_cursor ? { cursor: second.next_cursor } : {}) });
    expect(last).toEqual({ runs: [expect.objectContaining({ id: 'r0' })] });
    expect(store.list({ status: 'failed' }).runs.map((r) => r.id)).toEqual(['r3', 'r1']);
    // The folder is removed when the test ends: nothing may still be on its way to it.
    await store.close();
  });

  it('names a corrupt record instead of starting with a wrong view of the runs', async () => {
    const dir = tempDir();
    const store = new FileRunStore(dir);
    store.create(record('a', '2026-01-01T00:00:00.000Z'), 'x');
    await store.flush('a');
    fs.writeFileSync(path.join(dir, 'runs', 'a', 'record.json'), '{"id": "a"');
    expect(() => new FileRunStore(dir)).toThrow(/run record .*record\.json is not valid/);
  });
});
