import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../src/run/checkpoint.js';
import { latestCheckpoint, listCheckpoints, saveCheckpoint } from '../../src/run/checkpoint-files.js';
import { runDot, tempDir } from '../helpers/run-helpers.js';

const checkpoint = (timestamp: number, current_node: string): Checkpoint => ({
  timestamp,
  current_node,
  completed_nodes: ['start'],
  node_retries: {},
  context: { k: 1 },
  logs: [{ node: 'start', time: '2026-01-01T00:00:00.000Z', message: 'hello' }],
  pipeline: 'p',
  run_id: 'r1',
  status: 'running',
  node_outcomes: {},
  steps: 1,
  restarts: 0,
  failed_nodes: [],
  source_sha256: 'abc',
});

describe('checkpoint files', () => {
  it('save writes a checkpoint that reads back; list orders by number, newest first; latest reads it', () => {
    const dir = join(tempDir(), 'history');
    // 9 < 10 numerically, but "checkpoint_9" > "checkpoint_10" as text.
    saveCheckpoint(join(dir, 'checkpoint_9.json'), checkpoint(9, 'a'));
    saveCheckpoint(join(dir, 'checkpoint_10.json'), checkpoint(10, 'b'));
    writeFileSync(join(dir, 'notes.txt'), 'not a checkpoint');
    expect(listCheckpoints(dir).map((f) => f.timestamp)).toEqual([10, 9]);
    expect(latestCheckpoint(dir)).toEqual(checkpoint(10, 'b'));
  });

  it('save refuses an invalid checkpoint; list and latest of a missing or empty folder are empty', () => {
    const dir = tempDir();
    expect(() => saveCheckpoint(join(dir, 'bad.json'), { timestamp: 1 } as unknown as Checkpoint)).toThrow();
    expect(listCheckpoints(join(dir, 'missing'))).toEqual([]);
    mkdirSync(join(dir, 'empty'));
    expect(latestCheckpoint(join(dir, 'empty'))).toBeUndefined();
  });

  it('latest throws CHECKPOINT_CORRUPT for a corrupt newest file instead of using an older one', () => {
    const dir = tempDir();
    saveCheckpoint(join(dir, 'checkpoint_1.json'), checkpoint(1, 'a'));
    writeFileSync(join(dir, 'checkpoint_2.json'), '{"timestamp": 2');
    expect(() => latestCheckpoint(dir)).toThrow(expect.objectContaining({ code: 'CHECKPOINT_CORRUPT' }));
  });

  it('the newest file of a run’s --checkpoint-dir history is its final checkpoint', async () => {
    const history = join(tempDir(), 'ckpts');
    const run = await runDot(
      'digraph h { start [shape=Mdiamond]; w [prompt="w"]; exit [shape=Msquare]; start -> w -> exit }',
      { checkpointDir: history },
    );
    expect(listCheckpoints(history).length).toBeGreaterThan(1);
    const latest = latestCheckpoint(history);
    expect(latest?.status).toBe('completed');
    expect(latest).toEqual(JSON.parse(readFileSync(join(run.result.runDir, 'checkpoint.json'), 'utf8')));
  });
});
