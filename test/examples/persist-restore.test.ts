import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDist } from '../helpers/ensure-dist.js';

const example = fileURLToPath(new URL('../../examples/embed/persist-restore.mjs', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'attractor-persist-'));
const run = (...args: string[]) =>
  spawnSync(process.execPath, [example, ...args], { encoding: 'utf8', timeout: 60_000 });

// Two real processes: the point is that nothing but the stored JSON carries the run from one to the other.
describe('examples/embed/persist-restore: a human gate that outlives its process', () => {
  beforeAll(() => ensureDist(), 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stores the actor at the gate, and a second process restores it, answers and completes', () => {
    const file = path.join(dir, 'release.json');
    const first = run('start', file);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toBe('waiting: Publish the notes?\n');
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(stored).toMatchObject({ status: 'active', value: { review: 'run' } });
    expect(stored.context.completedNodes).toEqual(['start', 'draft']);

    const second = run('answer', file, 'A');
    expect(second.stderr).toBe('');
    expect(second.status).toBe(0);
    // `draft` completed before the snapshot and does not run again; the gate, interrupted, does.
    expect(second.stdout).toBe(
      'completed: start, draft, review, publish, exit\nran in this process: review, publish, exit\n',
    );
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ status: 'done', value: '__completed' });
  }, 120_000);
});
