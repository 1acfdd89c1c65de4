import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AutoApproveInterviewer } from '../../src/actors/interviewers/auto-approve.js';
import { createSimulatedBackend } from '../../src/actors/simulated-backend.js';
import { runPipeline } from '../../src/machines/engine.js';
import { runCli } from './run-cli.js';
import { tempPipelines } from './temp-pipelines.js';

/**
 * Shaped like a yes/no gate (the question is `yes_no`), but its FIRST edge is the "No" path. Auto-approval
 * takes the first option everywhere, so every path below must end up in `stop`, never in `go`. (The
 * HTTP server's `auto_approve` is checked the same way in test/server/gate-answers.test.ts.)
 */
const NO_FIRST = `digraph no_first {
  start [shape=Mdiamond]
  gate [shape=hexagon, label="Deploy?"]
  stop [prompt="Stop"]
  go [prompt="Go"]
  exit [shape=Msquare]
  start -> gate
  gate -> stop [label="[N] No"]
  gate -> go [label="[Y] Yes"]
  stop -> exit
  go -> exit
}
`;

const files = tempPipelines();
afterAll(() => files.cleanup());

function completedNodes(runDir: string): string[] {
  return JSON.parse(readFileSync(path.join(runDir, 'checkpoint.json'), 'utf8')).completed_nodes;
}

describe('auto-approval takes the first edge of a yes/no-shaped gate whose first edge is "No"', () => {
  it.each([
    ['--dry-run', ['--dry-run']],
    ['--auto-approve (with a scenario)', ['--auto-approve', '--scenario', 'empty.json']],
  ])('CLI %s', async (name, flags) => {
    files.write('no-first.dot', NO_FIRST);
    files.write('empty.json', '{}');
    const runs = `runs-${name.replace(/\W+/g, '-')}`;
    const r = await runCli(['run', 'no-first.dot', ...flags, '--logs-dir', runs], { cwd: files.dir });
    expect(r.code).toBe(0);
    const done = completedNodes(path.join(files.dir, runs));
    expect(done).toContain('stop');
    expect(done).not.toContain('go');
  });

  it('library: AutoApproveInterviewer', async () => {
    const result = await runPipeline({
      source: NO_FIRST,
      runDir: path.join(files.dir, 'runs-library'),
      backend: createSimulatedBackend(),
      interviewer: new AutoApproveInterviewer(),
    });
    expect(result.status).toBe('completed');
    expect(result.completedNodes).toContain('stop');
    expect(result.completedNodes).not.toContain('go');
    expect(result.context['human.gate.selected']).toBe('N');
  });
});
