import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunDirectory, type RunManifest } from '../../src/machines/run-directory.js';
import { runDot, tempDir } from './run-helpers.js';

const MANIFEST: RunManifest = {
  run_id: 'r1',
  pipeline: 'g',
  goal: '',
  source_sha256: 'x',
  started_at: '2026-11-27T00:00:00.000Z',
  attractor_version: '0.0.0',
  options: {},
};

describe('createRunDirectory', () => {
  it('durable: pipeline.dot and manifest.json appear only when settled (or by themselves later), whole', () => {
    const runDir = join(tempDir(), 'run');
    const files = createRunDirectory(runDir, 'digraph g {}', MANIFEST);
    // Their fsyncs run on the thread pool; no event-loop turn has happened, so neither name exists yet.
    expect(existsSync(join(runDir, 'manifest.json'))).toBe(false);
    expect(existsSync(join(runDir, 'pipeline.dot'))).toBe(false);
    files.settle();
    expect(readdirSync(runDir).sort()).toEqual(['artifacts', 'manifest.json', 'pipeline.dot']);
    expect(readFileSync(join(runDir, 'pipeline.dot'), 'utf8')).toBe('digraph g {}');
    expect(JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8'))).toEqual(MANIFEST);
  });

  it('not durable: both are in place at once', () => {
    const runDir = join(tempDir(), 'run');
    createRunDirectory(runDir, 'digraph g {}', MANIFEST, { durable: false });
    expect(readdirSync(runDir).sort()).toEqual(['artifacts', 'manifest.json', 'pipeline.dot']);
  });
});

describe('a durable run', () => {
  it('has its pipeline copy and manifest in place before its first checkpoint', async () => {
    const runDir = join(tempDir(), 'run');
    const seen: string[] = [];
    const source =
      'digraph g { start [shape=Mdiamond]; a [shape=diamond]; exit [shape=Msquare]; start -> a -> exit }';
    await runDot(source, {
      runDir,
      durable: true,
      onEvent: (event) => {
        if (event.kind !== 'checkpoint.saved' || seen.length > 0) return;
        // Read synchronously from inside the first checkpoint's event: no event-loop turn came between.
        seen.push(readFileSync(join(runDir, 'pipeline.dot'), 'utf8'));
        seen.push(JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')).pipeline);
      },
    });
    expect(seen).toEqual([source, 'g']);
    expect(readdirSync(runDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
