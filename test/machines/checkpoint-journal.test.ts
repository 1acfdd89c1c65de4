import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Checkpoint, createCheckpointWriter, readCheckpoint } from '../../src/machines/checkpoint.js';
import {
  CheckpointJournal,
  JOURNAL_COMPACT_BYTES,
  JOURNAL_FILE,
  newestJournalLine,
} from '../../src/machines/checkpoint-journal.js';
import { tempDir } from './run-helpers.js';

const line = (n: number) => `${JSON.stringify({ n })}\n`;

const checkpoint = (
  steps: number,
  status: Checkpoint['status'] = 'running',
): Omit<Checkpoint, 'context'> => ({
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
});

const snapshot = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'checkpoint.json'), 'utf8')) as Checkpoint;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('CheckpointJournal', () => {
  it('appends lines; the newest complete one is read back, a line cut short by a crash is skipped', () => {
    const dir = tempDir();
    expect(newestJournalLine(dir)).toBeUndefined();
    const journal = new CheckpointJournal(dir, { durable: true });
    journal.append(line(1));
    journal.append(line(2));
    expect(newestJournalLine(dir)).toBe('{"n":2}');
    journal.close();
    appendFileSync(join(dir, JOURNAL_FILE), '{"n":3,"cut');
    expect(newestJournalLine(dir)).toBe('{"n":2}');
  });

  it('ends a torn last line before appending, so the next line is not glued to it', () => {
    const dir = tempDir();
    writeFileSync(join(dir, JOURNAL_FILE), `${line(1)}{"n":2,"cut`);
    const journal = new CheckpointJournal(dir, { durable: false });
    journal.append(line(3));
    journal.close();
    expect(newestJournalLine(dir)).toBe('{"n":3}');
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
    expect(newestJournalLine(dir)).toBeUndefined();
    journal.append(line(2));
    expect(newestJournalLine(dir)).toBe('{"n":2}');
    journal.remove();
    expect(existsSync(journal.path)).toBe(false);
  });
});

describe('the checkpoint writer with its journal', () => {
  it('writes checkpoint.json at the first step, then when the run next waits; reads see the newest at once', async () => {
    const dir = tempDir();
    const writer = createCheckpointWriter({ runDir: dir });
    writer.write(checkpoint(1), '{}');
    expect(snapshot(dir).steps).toBe(1);
    writer.write(checkpoint(2), '{}');
    writer.write(checkpoint(3), '{"k":1}');
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
      writer.write(checkpoint(1), '{}');
      writer.write(checkpoint(2), '{}');
      writer.write(checkpoint(3, status), '{}');
      expect(snapshot(dir)).toMatchObject({ steps: 3, status });
      expect(existsSync(join(dir, JOURNAL_FILE))).toBe(false);
      writer.close();
      expect(snapshot(dir).steps).toBe(3);
    }
  });

  it('close brings checkpoint.json up to date when a step is still pending', () => {
    const dir = tempDir();
    const writer = createCheckpointWriter({ runDir: dir, durable: false });
    writer.write(checkpoint(1), '{}');
    writer.write(checkpoint(2), '{}');
    writer.close();
    expect(snapshot(dir).steps).toBe(2);
  });

  it('past its bound the journal starts over behind a checkpoint.json holding its newest line', () => {
    const dir = tempDir();
    const writer = createCheckpointWriter({ runDir: dir, durable: false });
    const half = JSON.stringify({ text: 'x'.repeat(JOURNAL_COMPACT_BYTES / 2) });
    writer.write(checkpoint(1), half);
    writer.write(checkpoint(2), '{}');
    expect(snapshot(dir).steps).toBe(1);
    // Step 3 takes the journal past its bound: checkpoint.json gets it at once, and the journal is emptied.
    writer.write(checkpoint(3), half);
    expect(snapshot(dir).steps).toBe(3);
    expect(statSync(join(dir, JOURNAL_FILE)).size).toBe(0);
    writer.write(checkpoint(4), '{}');
    expect(snapshot(dir).steps).toBe(3);
    expect(readCheckpoint(join(dir, 'checkpoint.json')).steps).toBe(4);
    writer.close();
  });

  it('a resume after a crash appends to the journal it left and reads its own newest line', async () => {
    const dir = tempDir();
    const first = createCheckpointWriter({ runDir: dir });
    first.write(checkpoint(1), '{}');
    first.write(checkpoint(2), '{}');
    // Killed here: no close. checkpoint.json still says step 1; the journal says 2, and ends torn.
    appendFileSync(join(dir, JOURNAL_FILE), '{"timestamp":');
    expect(snapshot(dir).steps).toBe(1);
    expect(readCheckpoint(join(dir, 'checkpoint.json')).steps).toBe(2);
    const second = createCheckpointWriter({ runDir: dir });
    second.write(checkpoint(3), '{}');
    expect(readCheckpoint(join(dir, 'checkpoint.json')).steps).toBe(3);
    second.write(checkpoint(4, 'completed'), '{}');
    expect(snapshot(dir).steps).toBe(4);
    expect(existsSync(join(dir, JOURNAL_FILE))).toBe(false);
    // The "killed" writer still has its deferred checkpoint.json write queued (a real crash would not):
    // let it land now, not after the folder is removed, where it would make the folder again.
    await nextTurn();
  });

  it('a journal line that is not a checkpoint is a clear error naming the journal', () => {
    const dir = tempDir();
    const writer = createCheckpointWriter({ runDir: dir, durable: false });
    writer.write(checkpoint(1), '{}');
    appendFileSync(join(dir, JOURNAL_FILE), '{"timestamp":"soon"}\n');
    expect(() => readCheckpoint(join(dir, 'checkpoint.json'))).toThrow(
      expect.objectContaining({ code: 'CHECKPOINT_CORRUPT', message: expect.stringContaining(JOURNAL_FILE) }),
    );
    writer.close();
  });
});
