import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Checkpoint, createCheckpointWriter, readCheckpoint } from '../../src/run/checkpoint.js';
import type { CheckpointParts } from '../../src/run/checkpoint-delta.js';
import {
  CheckpointJournal,
  foldJournal,
  JOURNAL_COMPACT_BYTES,
  JOURNAL_FILE,
  newestJournalCheckpoint,
} from '../../src/run/checkpoint-journal.js';
import { tempDir } from '../helpers/run-helpers.js';

const line = (n: number) => `${JSON.stringify({ n })}\n`;

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

describe('CheckpointJournal', () => {
  it('appends lines; the newest complete one is read back, a line cut short by a crash is skipped', () => {
    const dir = tempDir();
    expect(newestJournalCheckpoint(dir)).toBeUndefined();
    const journal = new CheckpointJournal(dir, { durable: true });
    journal.append(line(1));
    journal.append(line(2));
    expect(newestJournalCheckpoint(dir)).toEqual({ n: 2 });
    journal.close();
    appendFileSync(join(dir, JOURNAL_FILE), '{"n":3,"cut');
    expect(newestJournalCheckpoint(dir)).toEqual({ n: 2 });
  });

  it('ends a torn last line before appending, so the next line is not glued to it', () => {
    const dir = tempDir();
    writeFileSync(join(dir, JOURNAL_FILE), `${line(1)}{"n":2,"cut`);
    const journal = new CheckpointJournal(dir, { durable: false });
    journal.append(line(3));
    journal.close();
    expect(newestJournalCheckpoint(dir)).toEqual({ n: 3 });
    expect(readFileSync(join(dir, JOURNAL_FILE), 'utf8')).toBe(`${line(1)}{"n":2,"cut\n${line(3)}`);
  });

  it('starts over empty, counting its size from there, and is deleted by remove', () => {
    const dir = tempDir();
    const journal = new CheckpointJournal(dir, { durable: false });
    journal.append(line(1));
    expect(journal.size).toBe(line(1).length);
    journal.startOver();
    expect(journal.size).toBe(0);
    expect(statSync(journal.path).size).toBe(0);
    expect(newestJournalCheckpoint(dir)).toBeUndefined();
    journal.append(line(2));
    expect(newestJournalCheckpoint(dir)).toEqual({ n: 2 });
    journal.remove();
    expect(existsSync(journal.path)).toBe(false);
  });
});

describe('the checkpoint writer with its journal', () => {
  it('writes checkpoint.json at the first step, then when the run next waits; reads see the newest at once', async () => {
    const dir = tempDir();
    const writer = createCheckpointWriter({ runDir: dir });
    writer.write(checkpoint(1));
    expect(snapshot(dir).steps).toBe(1);
    writer.write(checkpoint(2));
    writer.write(checkpoint(3, 'running', { k: 1 }));
    // checkpoint.json lags within a burst of instant steps; the journal has every step, durably.
    expect(snapshot(dir).steps).toBe(1);
    expect(readCheckpoint(join(dir, 'checkpoint.json'))).toMatchObject({ steps: 3, context: { k: 1 } });
    await nextTurn();
    expect(snapshot(dir)).toMatchObject({ steps: 3, context: { k: 1 } });
    writer.close();
    // A run that stopped without a final checkpoint (a crash would too) keeps its journal.
    expect(existsSync(join(dir, JOURNAL_FILE))).toBe(true);
  });

  it('a final checkpoint goes to checkpoint.json at once and the journal is deleted', () => {
    for (const status of ['completed', 'failed', 'paused', 'cancelled'] as const) {
      const dir = tempDir();
      const writer = createCheckpointWriter({ runDir: dir });
      writer.write(checkpoint(1));
      writer.write(checkpoint(2));
      writer.write(checkpoint(3, status));
      expect(snapshot(dir)).toMatchObject({ steps: 3, status });
      expect(existsSync(join(dir, JOURNAL_FILE))).toBe(false);
      writer.close();
      expect(snapshot(dir).steps).toBe(3);
    }
  });

  it('close brings checkpoint.json up to date when a step is still pending', () => {
    const dir = tempDir();
    const writer = createCheckpointWriter({ runDir: dir, durable: false });
    writer.write(checkpoint(1));
    writer.write(checkpoint(2));
    writer.close();
    expect(snapshot(dir).steps).toBe(2);
  });

  it('calls beforeSnapshot before each checkpoint.json write, whatever makes it, and on every flush', async () => {
    const dir = tempDir();
    // The steps checkpoint.json holds when the hook runs: it must not hold the checkpoint being written.
    const seen: (number | undefined)[] = [];
    const writer = createCheckpointWriter({
      runDir: dir,
      durable: false,
      beforeSnapshot: () =>
        seen.push(existsSync(join(dir, 'checkpoint.json')) ? snapshot(dir).steps : undefined),
    });
    const half = () => ({ text: 'x'.repeat(JOURNAL_COMPACT_BYTES / 2) });
    writer.write(checkpoint(1)); // the first step
    writer.write(checkpoint(2));
    writer.flush(); // before a node that does work
    writer.flush(); // nothing pending: the hook still runs
    writer.write(checkpoint(3));
    await nextTurn(); // the run waited
    writer.write(checkpoint(4, 'running', half()));
    writer.write(checkpoint(5));
    writer.write(checkpoint(6, 'running', half())); // past the journal's bound
    writer.write(checkpoint(7, 'completed')); // the end
    expect(seen).toEqual([undefined, 1, 2, 2, 3, 6]);
    expect(snapshot(dir).steps).toBe(7);
    writer.close();
  });

  it('past its bound the journal starts over behind a checkpoint.json holding its newest line', () => {
    const dir = tempDir();
    const writer = createCheckpointWriter({ runDir: dir, durable: false });
    const half = () => ({ text: 'x'.repeat(JOURNAL_COMPACT_BYTES / 2) });
    writer.write(checkpoint(1, 'running', half()));
    writer.write(checkpoint(2));
    expect(snapshot(dir).steps).toBe(1);
    // Step 3 takes the journal past its bound: checkpoint.json gets it at once, and the journal is emptied.
    writer.write(checkpoint(3, 'running', half()));
    expect(snapshot(dir).steps).toBe(3);
    expect(statSync(join(dir, JOURNAL_FILE)).size).toBe(0);
    writer.write(checkpoint(4));
    expect(snapshot(dir).steps).toBe(3);
    expect(readCheckpoint(join(dir, 'checkpoint.json')).steps).toBe(4);
    writer.close();
  });

  it('a resume after a crash appends to the journal it left and reads its own newest line', async () => {
    const dir = tempDir();
    const first = createCheckpointWriter({ runDir: dir });
    first.write(checkpoint(1));
    first.write(checkpoint(2));
    // Killed here: no close. checkpoint.json still says step 1; the journal says 2, and ends torn.
    appendFileSync(join(dir, JOURNAL_FILE), '{"timestamp":');
    expect(snapshot(dir).steps).toBe(1);
    expect(readCheckpoint(join(dir, 'checkpoint.json')).steps).toBe(2);
    const second = createCheckpointWriter({ runDir: dir });
    second.write(checkpoint(3));
    expect(readCheckpoint(join(dir, 'checkpoint.json')).steps).toBe(3);
    second.write(checkpoint(4, 'completed'));
    expect(snapshot(dir).steps).toBe(4);
    expect(existsSync(join(dir, JOURNAL_FILE))).toBe(false);
    // The "killed" writer still has its deferred checkpoint.json write queued (a real crash would not):
    // let it land now, not after the folder is removed, where it would make the folder again.
    await nextTurn();
  });

  it('a journal line that is not a checkpoint is a clear error naming the journal', () => {
    const dir = tempDir();
    const writer = createCheckpointWriter({ runDir: dir, durable: false });
    writer.write(checkpoint(1));
    appendFileSync(join(dir, JOURNAL_FILE), '{"timestamp":"soon"}\n');
    expect(() => readCheckpoint(join(dir, 'checkpoint.json'))).toThrow(
      expect.objectContaining({ code: 'CHECKPOINT_CORRUPT', message: expect.stringContaining(JOURNAL_FILE) }),
    );
    writer.close();
  });
});

describe('delta lines (decision 0055)', () => {
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

  it('after its first line the writer appends only what changed, and readers rebuild the whole checkpoint', () => {
    const dir = tempDir();
    const writer = createCheckpointWriter({ runDir: dir, durable: false });
    const one = checkpoint(1, 'running', { big: 'x'.repeat(10_000) });
    writer.write(one);
    const base = checkpoint(2, 'running', { ...one.values, k: 2 });
    const two = { ...base, header: { ...base.header, completed_nodes: ['a'] } };
    writer.write(two);
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
    // checkpoint.json is always whole, and holds no chain id.
    expect(snapshot(dir)).toMatchObject({ steps: 2, completed_nodes: ['a'], context: { k: 2 } });
    expect(snapshot(dir)).not.toHaveProperty('~');
  });

  it('two writers on one journal never mix: each delta applies only in its own chain', () => {
    const dir = tempDir();
    const a = createCheckpointWriter({ runDir: dir, durable: false });
    const b = createCheckpointWriter({ runDir: dir, durable: false });
    a.write(checkpoint(1, 'running', { who: 'a' }));
    b.write(checkpoint(5, 'running', { who: 'b' }));
    a.write(checkpoint(2, 'running', { who: 'a', k: 1 }));
    expect(readCheckpoint(join(dir, 'checkpoint.json'))).toMatchObject({ steps: 5, context: { who: 'b' } });
    b.write(checkpoint(6, 'running', { who: 'b', k: 2 }));
    expect(readCheckpoint(join(dir, 'checkpoint.json'))).toMatchObject({
      steps: 6,
      context: { who: 'b', k: 2 },
    });
    a.close();
    b.close();
  });

  it('a checkpoint.json further along than the journal (its chain broke) is the one read', async () => {
    const dir = tempDir();
    const writer = createCheckpointWriter({ runDir: dir, durable: false });
    writer.write(checkpoint(1));
    // A fragment (no newline) that step 2's line is glued to: the rest of the chain cannot be applied.
    appendFileSync(join(dir, JOURNAL_FILE), '{"~":["x",1],"se');
    writer.write(checkpoint(2));
    writer.write(checkpoint(3));
    expect(newestJournalCheckpoint(dir)?.['steps']).toBe(1);
    writer.flush();
    expect(snapshot(dir).steps).toBe(3);
    expect(readCheckpoint(join(dir, 'checkpoint.json')).steps).toBe(3);
    writer.close();
  });
});
