import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPipeline } from '../../src/run/engine.js';
import { eventOf, runDot, tempDir } from '../helpers/run-helpers.js';

const DOT = `digraph where { start [shape=Mdiamond]; a [prompt="a"]; exit [shape=Msquare]; start -> a -> exit }`;

describe('RunOptions: runDir (the run directory itself) and runsRoot (the default layout)', () => {
  it('runDir: the files go directly there, created if missing; pipeline.start names it', async () => {
    const runDir = join(tempDir(), 'nested', 'run-1');
    const run = await runDot(DOT, { runDir });
    expect(run.result.runDir).toBe(runDir);
    for (const f of ['manifest.json', 'checkpoint.json', 'events.jsonl', join('a', 'status.json')])
      expect(existsSync(join(runDir, f)), f).toBe(true);
    expect(run.events[0]?.kind).toBe('pipeline.start');
    expect(eventOf(run.events, 'pipeline.start')?.data.run_dir).toBe(runDir);
  });

  it('runsRoot: <root>/<graph>/<run id>/', async () => {
    const runsRoot = tempDir();
    const run = await runDot(DOT, { runsRoot });
    const [id] = readdirSync(join(runsRoot, 'where'));
    expect(run.result.runDir).toBe(join(runsRoot, 'where', id ?? ''));
    expect(id).toBe(run.result.runId);
  });

  it('a runDir that already holds a run is refused before anything is written', async () => {
    const runDir = tempDir();
    await runDot(DOT, { runDir });
    expect(() => startPipeline({ source: DOT, runDir, durable: false })).toThrow(
      /already holds a run \(.+\): continue it with `attractor resume .+`, or give a fresh directory/,
    );
  });

  it('runDir and runsRoot together are refused', () => {
    expect(() => startPipeline({ source: DOT, runDir: tempDir(), runsRoot: tempDir() })).toThrow(
      /runDir and runsRoot were both given/,
    );
  });
});
