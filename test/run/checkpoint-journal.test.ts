import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Checkpoint, createCheckpointWriter, readCheckpoint } from '../../src/run/checkpoint.js';
import type { CheckpointParts } from '../../src/run/checkpoint-delta.js';
import {
  foldJournal,
  JOURNAL_COMPACT_BYTES,
  JOURNAL_FILE,
  newestJournalCheckpoint,
} from '../../src/run/checkpoint-journal.js';
import { WriteLane } from '../../src/shared/write-lane.js';
import { tempDir } from '../helpers/run-helpers.js';

const checkpoint = (
  steps: number,
  status: Checkpoint['status'] = 'running',
  values: Record<string, unknown> = {},
): CheckpointParts => ({
  header: {
    timestamp: 1_000 + steps,
    current_node: `n${steps}`,
    completed_nodes: [],
    node_retries: {},
    logs: [],
    pipeline: 'p',
    run_id: 'r1',
    status,
    node_outcomes: {},
    steps,
    restarts: 0,
    failed_nodes: [],
    source_sha256: 'abc',
  },
  values,
  visits: [],
});

const snapshot = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'checkpoint.json'), 'utf8')) as Checkpoint;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A writer on a lane of its own, and what waits for everything it queued to be written. */
function writerIn(dir: string, options: { durable?: boolean; beforeSnapshot?: () => void } = {}) {
  const lane = new WriteLane({ durable: options.durable ?? false });
  const writer = createCheckpointWriter({
    runDir: dir,
    lane,
    ...(options.beforeSnapshot ? { beforeSnapshot: options.beforeSnapshot } : {}),
  });
  return { writer, written: () => lane.settled() };
}

describe('the checkpoint writer with its journal', () => {
  it('appends to the journal; the newest complete line is read back, a line cut short by a crash is skipped', async () => {
    const dir = tempDir();
    expect(newestJournalCheckpoint(dir)).toBeUndefined();
    const { writer, written } = writerIn(dir, { durable: true });
    writer.write(checkpoint(1));
    writer.write(checkpoint(2));
    await written();
    expect(newestJournalCheckpoint(dir)).toMatchObject({ steps: 2 });
    appendFileSync(join(dir, JOURNAL_FILE), '{"~":["x",1],"cut');
    expect(newestJournalCheckpoint(dir)).toMatchObject({ steps: 2 });
    writer.close();
    await written();
  });

  it('writes checkpoint.json at the first step, then when the run next waits; the journal has every step', async () => {
    const dir = tempDir();
    const { writer, written } = writerIn(dir, { durable: true });
    writer.write(checkpoint(1));
    writer.write(checkpoint(2));
    writer.write(checkpoint(3, 'running', { k: 1 }));
    await written();
    // checkpoint.json lags within a burst of instant steps; the journal has every step, durably.
    expect(snapshot(dir).steps).toBe(1);
    expect(readCheckpoint(join(dir, 'checkpoint.json'))).toMatchObject({ steps: 3, context: { k: 1 } });
    await nextTurn();
    await written();
    expect(snapshot(dir)).toMatchObject({ steps: 3, context: { k: 1 } });
    writer.close();
    await written();
    // A run that stopped without a final checkpoint (a crash would too) keeps its journal.
    expect(existsSync(join(dir, JOURNAL_FILE))).toBe(true);
  });

  it('a final checkpoint goes to checkpoint.json with the same batch, and the journal is deleted', async () => {
    for (const status of ['completed', 'failed', 'paused', 'cancelled'] as const) {
      const dir = tempDir();
      const { writer, written } = writerIn(dir, { durable: true });
      writer.write(checkpoint(1));
      writer.write(checkpoint(2));
      writer.write(checkpoint(3, status));
      await written();
      expect(snapshot(dir)).toMatchObject({ steps: 3, status });
      expect(existsSync(join(dir, JOURNAL_FILE))).toBe(false);
      writer.close();
      await written();
      expect(snapshot(dir).steps).toBe(3);
    }
  });

  it('close brings checkpoint.json up to date when a step is still pending', async () => {
    const dir = tempDir();
    const { writer, written } = writerIn(dir);
    writer.write(checkpoint(1));
    writer.write(checkpoint(2));
    writer.close();
    await written();
    expect(snapshot(dir).steps).toBe(2);
  });

  it('calls beforeSnapshot before each checkpoint.json write, whatever makes it, and on every flush', async () => {
    const dir = tempDir();
    // The step of the newest write() returned when the hook runs (the first runs inside the first write).
    const seen: (number | undefined)[] = [];
    let queued: number | undefined;
    const { writer, written } = writerIn(dir, { beforeSnapshot: () => seen.push(queued) });
    const write = (parts: CheckpointParts) => {
      writer.write(parts);
      queued = parts.header.steps;
    };
    const half = () => ({ text: 'x'.repeat(JOURNAL_COMPACT_BYTES / 2) });
    write(checkpoint(1)); // the first step
    write(checkpoint(2));
    writer.flush(); // before a node that does work
    writer.flush(); // nothing pending: the hook still runs
    write(checkpoint(3));
    await nextTurn(); // the run waited
    write(checkpoint(4, 'running', half()));
    write(checkpoint(5));
    write(checkpoint(6, 'running', half())); // past the journal's bound
    write(checkpoint(7, 'completed')); // the end
    // The first step; two flushes; the wait (3); past the bound (6, inside its write); the end (7).
    expect(seen).toEqual([undefined, 2, 2, 3, 5, 6]);
    await written();
    expect(snapshot(dir).steps).toBe(7);
    writer.close();
    await written();
  });

  it('past its bound the journal starts over behind a checkpoint.json holding its newest line', async () => {
    const dir = tempDir();
    const { writer, written } = writerIn(dir);
    const half = () => ({ text: 'x'.repeat(JOURNAL_COMPACT_BYTES / 2) });
    writer.write(checkpoint(1, 'running', half()));
    writer.write(checkpoint(2));
    await written();
    expect(snapshot(dir).steps).toBe(1);
    // Step 3 takes the journal past its bound: checkpoint.json gets it at once, and the journal is emptied.
    writer.write(checkpoint(3, 'running', half()));
    await written();
    expect(snapshot(dir).steps).toBe(3);
    expect(statSync(join(dir, JOURNAL_FILE)).size).toBe(0);
    writer.write(checkpoint(4));
    await written();
    expect(snapshot(dir).steps).toBe(3);
    expect(readCheckpoint(join(dir, 'checkpoint.json')).steps).toBe(4);
    writer.close();
    await written();
  });

  it('a resume after a crash appends to the journal it left and reads its own newest line', async () => {
    const dir = tempDir();
    const first = writerIn(dir, { durable: true });
    first.writer.write(checkpoint(1));
    first.writer.write(checkpoint(2));
    await first.written();
    // Killed here: no close. checkpoint.json still says step 1; the journal says 2, and ends torn.
    appendFileSync(join(dir, JOURNAL_FILE), '{"timestamp":');
    expect(snapshot(dir).steps).toBe(1);
    expect(readCheckpoint(join(dir, 'checkpoint.json')).steps).toBe(2);
    // The "killed" writer still has its deferred checkpoint.json write to make (a real crash would not):
    // let it land now, not after the second writer's.
    await nextTurn();
    await first.written();
    const second = writerIn(dir, { durable: true });
    second.writer.write(checkpoint(3));
    await second.written();
    expect(readCheckpoint(join(dir, 'checkpoint.json')).steps).toBe(3);
    expect(readFileSync(join(dir, JOURNAL_FILE), 'utf8')).toContain('{"timestamp":\n');
    second.writer.write(checkpoint(4, 'completed'));
    await second.written();
    expect(snapshot(dir).steps).toBe(4);
    expect(existsSync(join(dir, JOURNAL_FILE))).toBe(false);
  });

  it('a journal line that is not a checkpoint is a clear error naming the journal', async () => {
    const dir = tempDir();
    const { writer, written } = writerIn(dir);
    writer.write(checkpoint(1));
    await written();
    appendFileSync(join(dir, JOURNAL_FILE), '{"timestamp":"soon"}\n');
    expect(() => readCheckpoint(join(dir, 'checkpoint.json'))).toThrow(
      expect.objectContaining({ code: 'CHECKPOINT_CORRUPT', message: expect.stringContaining(JOURNAL_FILE) }),
    );
    writer.close();
    await written();
  });
});

describe('delta lines (decision 0470)', () => {
  const full = (n: number, chain = 'A') => `${JSON.stringify({ '~': chain, n, list: [n] })}\n`;
  const delta = (index: number, n: number, chain = 'A') =>
    `${JSON.stringify({ '~': [chain, index], set: { n }, push: { completed_nodes: [n] } })}\n`;
  // The state after deltas set `n` and pushed `pushed` onto the chain whose full line had `first`.
  const at = (first: number, n: number, ...pushed: number[]) => ({
    n,
    list: [first],
    completed_nodes: pushed,
  });
  const fullWithList = (n: number, chain = 'A') =>
    `${JSON.stringify({ '~': chain, n, list: [n], completed_nodes: [] })}\n`;

  it.each([
    ['a full line alone', full(1), { n: 1, list: [1] }],
    ['a line an older run wrote (no chain)', '{"n":1}\n', { n: 1 }],
    ['a chain of deltas', fullWithList(1) + delta(1, 2) + delta(2, 3), at(1, 3, 2, 3)],
    ['the line before a torn last one', `${fullWithList(1)}${delta(1, 2)}{"~":["A",2],"se`, at(1, 2, 2)],
    [
      'no delta past a torn line of its chain',
      `${fullWithList(1)}{"~":["A",1],"se\n${delta(2, 3)}`,
      at(1, 1),
    ],
    [
      'a new chain after a torn line',
      `${fullWithList(1)}{"~":["A",1],"se\n${fullWithList(5, 'B')}${delta(1, 6, 'B')}`,
      at(5, 6, 6),
    ],
    ['no delta out of its place', fullWithList(1) + delta(2, 3), at(1, 1)],
    [
      "no delta of another writer's chain",
      fullWithList(1) + fullWithList(7, 'B') + delta(1, 2) + delta(1, 8, 'B'),
      at(7, 8, 8),
    ],
    ['no delta that does not fit', full(1) + delta(1, 2), { n: 1, list: [1] }],
    [
      'no delta naming a field it may not touch',
      `${fullWithList(1)}${JSON.stringify({ '~': ['A', 1], merge: { __proto__: { polluted: true } } })}\n`,
      at(1, 1),
    ],
    ['nothing before a full line', delta(1, 2), undefined],
    ['nothing in an empty journal', '', undefined],
  ])('folding the journal finds %s', (_, text, expected) => {
    expect(foldJournal(text)).toEqual(expected);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('a delta may grow a list by any number of entries', () => {
    const many = Array.from({ length: 300_000 }, (_, i) => i);
    const text = `${fullWithList(1)}${JSON.stringify({ '~': ['A', 1], push: { completed_nodes: many } })}\n`;
    expect(foldJournal(text)?.['completed_nodes']).toHaveLength(300_000);
  });

  it('after its first line the writer appends only what changed, and readers rebuild the whole checkpoint', async () => {
    const dir = tempDir();
    const { writer, written } = writerIn(dir);
    const one = checkpoint(1, 'running', { big: 'x'.repeat(10_000) });
    writer.write(one);
    const base = checkpoint(2, 'running', { ...one.values, k: 2 });
    const two = { ...base, header: { ...base.header, completed_nodes: ['a'] } };
    writer.write(two);
    await written();
    const lines = readFileSync(join(dir, JOURNAL_FILE), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]?.length).toBeGreaterThan(10_000);
    expect(lines[1]?.length).toBeLessThan(200);
    expect(JSON.parse(lines[1] ?? '')).toMatchObject({ push: { completed_nodes: ['a'] } });
    expect(readCheckpoint(join(dir, 'checkpoint.json'))).toMatchObject({
      steps: 2,
      completed_nodes: ['a'],
      context: { big: 'x'.repeat(10_000), k: 2 },
    });
    writer.close();
    await written();
    // checkpoint.json is always whole, and holds no chain id.
    expect(snapshot(dir)).toMatchObject({ steps: 2, completed_nodes: ['a'], context: { k: 2 } });
    expect(snapshot(dir)).not.toHaveProperty('~');
  });

  it('two writers on one journal never mix: each delta applies only in its own chain', async () => {
    const dir = tempDir();
    const a = writerIn(dir);
    const b = writerIn(dir);
    a.writer.write(checkpoint(1, 'running', { who: 'a' }));
    await a.written();
    b.writer.write(checkpoint(5, 'running', { who: 'b' }));
    await b.written();
    a.writer.write(checkpoint(2, 'running', { who: 'a', k: 1 }));
    await a.written();
    expect(readCheckpoint(join(dir, 'checkpoint.json'))).toMatchObject({ steps: 5, context: { who: 'b' } });
    b.writer.write(checkpoint(6, 'running', { who: 'b', k: 2 }));
    await b.written();
    expect(readCheckpoint(join(dir, 'checkpoint.json'))).toMatchObject({
      steps: 6,
      context: { who: 'b', k: 2 },
    });
    a.writer.close();
    b.writer.close();
    await Promise.all([a.written(), b.written()]);
  });

  it('a checkpoint.json further along than the journal (its chain broke) is the one read', async () => {
    const dir = tempDir();
    const { writer, written } = writerIn(dir);
    writer.write(checkpoint(1));
    await written();
    // A fragment (no newline) that step 2's line is glued to: the rest of the chain cannot be applied.
    appendFileSync(join(dir, JOURNAL_FILE), '{"~":["x",1],"se');
    writer.write(checkpoint(2));
    writer.write(checkpoint(3));
    await written();
    expect(newestJournalCheckpoint(dir)?.['steps']).toBe(1);
    writer.flush();
    await written();
    expect(snapshot(dir).steps).toBe(3);
    expect(readCheckpoint(join(dir, 'checkpoint.json')).steps).toBe(3);
    writer.close();
    await written();
  });
});
