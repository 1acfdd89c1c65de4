import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { tempPipelines, VALID_PIPELINE } from './temp-pipelines.js';

const GATE = `digraph g {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  gate [shape=hexagon, label="Ship?"]
  start -> gate
  gate -> exit [label="[S] Ship"]
  gate -> exit [label="[R] Rework"]
}
`;

const files = tempPipelines();
afterAll(() => files.cleanup());

describe('attractor attach, plain', () => {
  it('ends with the line the run itself ended with, for a completed run', async () => {
    const dot = files.write('ok.dot', VALID_PIPELINE);
    const runDir = path.join(files.dir, 'ok-run');
    const run = await runCli(['run', dot, '--dry-run', '--logs-dir', runDir], { cwd: files.dir });
    expect(run.code).toBe(0);
    const attached = await runCli(['attach', 'ok-run', '--no-tui'], { cwd: files.dir });
    expect(attached.code).toBe(0);
    const last = attached.stdout.trimEnd().split('\n').at(-1);
    expect(last).toBe(run.stdout.trimEnd().split('\n').at(-1));
    expect(last).toBe('Completed at exit (quality: clean). Run directory: ok-run');
  });

  it('for a failed run: where and why, the reason printed once', async () => {
    const dot = files.write('g.dot', GATE);
    const scenario = files.write('s.json', JSON.stringify({ answers: { gate: ['X'] } }));
    const run = await runCli(['run', dot, '--scenario', scenario, '--logs-dir', 'g-run'], { cwd: files.dir });
    expect(run.code).toBe(1);
    const attached = await runCli(['attach', 'g-run', '--no-tui'], { cwd: files.dir });
    expect(attached.code).toBe(1);
    const lines = attached.stdout.trimEnd().split('\n');
    // The run's own summary line, above the resume and fork commands it ends with.
    expect(lines.at(-1)).toBe(run.stdout.trimEnd().split('\n').at(-3));
    expect(lines.at(-1)).toMatch(
      /^Failed at gate \(quality: failed — failed: gate\)\. Run directory: g-run$/,
    );
    expect(lines.filter((l) => l.includes('is none of the options'))).toHaveLength(1);
  });
});
