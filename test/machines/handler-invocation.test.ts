import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { readJson, runDot } from '../helpers/run-helpers.js';

describe('status.json of a visit', () => {
  it('keeps the file a handler wrote even when the filesystem stamps it before the visit began', async () => {
    // Kernels stamp mtimes from a coarse clock that can lag Date.now() by a tick (4-10 ms).
    const registry = createDefaultRegistry().register('writer', async ({ stageDir }) => {
      const path = join(stageDir, 'status.json');
      writeFileSync(path, JSON.stringify({ outcome: 'success', notes: 'written by hand' }));
      const past = new Date(Date.now() - 60_000);
      utimesSync(path, past, past);
      return { status: 'success' };
    });
    const run = await runDot(
      'digraph s { start [shape=Mdiamond]; w [type="writer"]; exit [shape=Msquare]; start -> w -> exit }',
      { registry },
    );
    expect(readJson(join(run.result.runDir, 'w', 'status.json'))['notes']).toBe('written by hand');
  });

  it('replaces a status.json left by an earlier visit when this visit wrote none', async () => {
    let visits = 0;
    const registry = createDefaultRegistry().register('flaky', async ({ stageDir }) => {
      visits += 1;
      if (visits === 1) {
        writeFileSync(join(stageDir, 'status.json'), JSON.stringify({ outcome: 'fail', notes: 'first' }));
        return { status: 'fail', failure_reason: 'first' };
      }
      return { status: 'success', notes: 'second' };
    });
    const run = await runDot(
      `digraph s { start [shape=Mdiamond]; f [type="flaky"]; exit [shape=Msquare]
        start -> f
        f -> f [condition="outcome=fail"]
        f -> exit [condition="outcome=success"] }`,
      { registry },
    );
    expect(visits).toBe(2);
    expect(readJson(join(run.result.runDir, 'f', 'status.json'))).toMatchObject({
      outcome: 'success',
      notes: 'second',
    });
  });
});
