import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { hasTmux, openTmux, type TmuxTerminal } from '../helpers/tmux-terminal.js';
import { tempPipelines } from './temp-pipelines.js';

const GATE = `digraph release {
  graph [goal="Ship the health endpoint"]
  start [shape=Mdiamond]
  plan [label="Plan"]
  build [shape=parallelogram, tool_command="echo compiling; sleep 1; echo built"]
  review [shape=hexagon, label="Ship this build?"]
  done [shape=Msquare]
  start -> plan -> build -> review
  review -> done [label="[A] Approve"]
  review -> plan [label="[R] Revise"]
}
`;

const SLOW = `digraph slow {
  start [shape=Mdiamond]
  first [shape=parallelogram, tool_command="sleep 3"]
  second [shape=parallelogram, tool_command="echo second"]
  done [shape=Msquare]
  start -> first -> second -> done
}
`;

const files = tempPipelines();
const terminals: TmuxTerminal[] = [];
const open = (command: string, columns = 100) => {
  const terminal = openTmux(command, { cwd: files.dir, columns });
  terminals.push(terminal);
  return terminal;
};
const attractor = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`;

/** The run directory under a --logs-dir (wherever its layout puts manifest.json). */
function findRunDir(root: string): string | undefined {
  if (!existsSync(root)) return undefined;
  if (existsSync(path.join(root, 'manifest.json'))) return root;
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const found = findRunDir(path.join(root, entry.name));
    if (found) return found;
  }
  return undefined;
}

async function waitForRunDir(root: string): Promise<string> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const dir = findRunDir(root);
    if (dir && existsSync(path.join(dir, 'events.jsonl'))) return dir;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no run directory appeared under ${root}`);
}

beforeAll(() => {
  ensureDist();
  files.write('gate.dot', GATE);
  files.write('slow.dot', SLOW);
  files.write('scenario.json', '{}');
}, 180_000);
afterEach(() => {
  for (const terminal of terminals.splice(0)) terminal.close();
});
afterAll(() => files.cleanup());

describe('the TUI in a real terminal (tmux)', () => {
  test('tmux is installed (.ci/run installs it)', () => {
    expect(hasTmux()).toBe(true);
  });

  test('a human gate is answered in place with its accelerator key; exit 0, terminal restored', async () => {
    const t = open(`${attractor} run gate.dot --scenario scenario.json --logs-dir runs-gate`);
    // The status line is drawn last: matching through it means a whole frame is on screen.
    const waiting = await t.waitFor(/waiting for you[\s\S]*\? Ship this build\?[\s\S]*\^C pause/);
    expect(waiting).toContain('◆ release');
    expect(waiting).toContain('waiting for you');
    expect(waiting).toMatch(/✓ start\s+start/);
    expect(waiting).toMatch(/✓ Plan\s+agent/);
    expect(waiting).toMatch(/✓ build\s+tool/);
    expect(waiting).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Ship this build\?\s+gate/);
    expect(waiting).toMatch(/○ done\s+exit/);
    expect(waiting).toMatch(/\[A\] Approve → done/);
    expect(waiting).toMatch(/\[R\] Revise → plan/);
    t.keys('a');
    const after = await t.waitFor(/EXIT=\d+[\s\S]*icanon/);
    expect(after).toContain('EXIT=0');
    expect(after).toMatch(/release: done \(clean\)/);
    expect(after).toMatch(/Completed at done \(quality: clean\)/);
    // Restored: canonical (cooked) mode is back, the cursor is visible, no TUI frame is left.
    expect(after).toMatch(/^icanon$/m);
    expect(after).not.toContain('╔');
    expect(t.cursorVisible()).toBe(true);
    const runDir = findRunDir(path.join(files.dir, 'runs-gate'));
    expect(runDir).toBeDefined();
    expect(readdirSync(path.join(runDir as string, 'questions'))).toEqual([]);
  }, 120_000);

  test('Ctrl-C pauses after the running node (exit 130), and `attractor resume` completes the run', async () => {
    const t = open(`${attractor} run slow.dot --scenario scenario.json --logs-dir runs-slow`, 80);
    await t.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] first\s+tool/);
    t.keys('C-c');
    // The header and the footer both say so; tmux can show a frame half drawn, so wait for the whole.
    const pausing = await t.waitFor(/pausing after this node[\s\S]*\^C again: cancel now/);
    expect(pausing).toContain('^C again: cancel now');
    const after = await t.waitFor(/EXIT=\d+/);
    expect(after).toContain('EXIT=130');
    expect(after).toMatch(/Interrupted at second\. Resume with: attractor resume/);
    const runDir = findRunDir(path.join(files.dir, 'runs-slow')) as string;
    const resumed = spawnSync(process.execPath, [BIN, 'resume', runDir], {
      cwd: files.dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 60_000,
    });
    expect(resumed.stdout).toMatch(/Completed at done/);
    expect(resumed.status).toBe(0);
  }, 120_000);

  test('attach follows a run another process executes and answers its gate through the run directory', async () => {
    const runner = open(`${attractor} run gate.dot --scenario scenario.json --logs-dir runs-attach`);
    const runDir = await waitForRunDir(path.join(files.dir, 'runs-attach'));
    await runner.waitFor(/\? Ship this build\?[\s\S]*\^C pause/);
    const watcher = open(`${attractor} attach ${JSON.stringify(runDir)}`, 80);
    const seen = await watcher.waitFor(/\[A\] Approve → done[\s\S]*press a key/);
    expect(seen).toContain('◆ release');
    expect(seen).toMatch(/✓ build\s+tool/);
    watcher.keys('a');
    const watcherDone = await watcher.waitFor(/EXIT=\d+/);
    expect(watcherDone).toContain('EXIT=0');
    expect(watcherDone).toMatch(/release: done \(clean\)/);
    const runnerDone = await runner.waitFor(/EXIT=\d+/);
    expect(runnerDone).toContain('EXIT=0');
    expect(runnerDone).toMatch(/Ship this build\? .*Human selected: \[A\] Approve/);
    const answers = readdirSync(path.join(runDir, 'answers')).filter((name) => name.endsWith('.json'));
    expect(answers).toHaveLength(1);
  }, 120_000);
});

test('without a terminal, attach prints the run as plain lines and exits with its result', () => {
  ensureDist();
  const dir = path.join(files.dir, 'runs-plain');
  execFileSync(process.execPath, [BIN, 'run', 'gate.dot', '--dry-run', '--logs-dir', dir], {
    cwd: files.dir,
    stdio: 'pipe',
  });
  const attached = spawnSync(process.execPath, [BIN, 'attach', findRunDir(dir) as string], {
    cwd: files.dir,
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(attached.status).toBe(0);
  expect(attached.stdout).toMatch(/^▶ release — Ship the health endpoint$/m);
  expect(attached.stdout).toMatch(/✓ review success/);
});

test('attach refuses a directory that is not a run', () => {
  ensureDist();
  const attached = spawnSync(process.execPath, [BIN, 'attach', files.dir], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(attached.status).toBe(1);
  expect(attached.stderr).toContain('has no manifest.json: is it a run directory?');
});
