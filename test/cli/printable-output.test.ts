import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { tempPipelines } from './temp-pipelines.js';

// A title change (OSC 0), a screen clear (CSI 2J), a backspace and a one-byte CSI (C1 0x9b).
const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J\b\u009b31m';
const PIPELINE = `digraph "evil${HOSTILE}" {
  graph [goal="goal\u001b[2J"]
  start [shape=Mdiamond]
  exit [shape=Msquare]
  work [prompt="Work"]
  start -> work -> exit
}
`;
const SCENARIO = JSON.stringify({
  nodes: { work: [{ outcome: 'fail', failure_reason: `broke${HOSTILE}` }] },
});
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const files = tempPipelines();
afterAll(() => files.cleanup());

describe("what the CLI prints from a pipeline's own text", () => {
  it('shows control characters as escapes in run, runs and attach', async () => {
    const dot = files.write('evil.dot', PIPELINE);
    const scenario = files.write('s.json', SCENARIO);
    const io = { cwd: files.dir, env: { NO_COLOR: '1' } };
    const run = await runCli(['run', dot, '--scenario', scenario, '--logs-dir', 'runs/one'], io);
    const runs = await runCli(['runs', 'runs'], io);
    const attached = await runCli(['attach', 'runs/one', '--no-tui'], io);
    for (const [command, result] of [
      ['run', run],
      ['runs', runs],
      ['attach', attached],
    ] as const) {
      const printed = result.stdout + result.stderr;
      expect(printed, command).not.toMatch(CONTROL);
      expect(printed, command).toContain('evil\\x1b]0;pwned\\x07\\x1b[2J\\x08\\x9b31m');
    }
    expect(run.stdout).toContain('goal\\x1b[2J');
    expect(run.stdout).toContain('broke\\x1b]0;pwned');
  });
});
