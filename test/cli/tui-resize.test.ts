import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { openTmux, type TmuxTerminal } from '../helpers/tmux-terminal.js';
import { tempPipelines } from './temp-pipelines.js';

const GATE = `digraph release {
  graph [goal="Ship the health endpoint"]
  start [shape=Mdiamond]
  plan [label="Plan"]
  build [shape=parallelogram, tool_command="echo compiling; echo built"]
  review [shape=hexagon, label="Ship this build?"]
  done [shape=Msquare]
  start -> plan -> build -> review
  review -> done [label="[A] Approve"]
  review -> plan [label="[R] Revise"]
}
`;

const files = tempPipelines();
const terminals: TmuxTerminal[] = [];
const attractor = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`;

beforeAll(() => {
  ensureDist();
  files.write('gate.dot', GATE);
  files.write('scenario.json', '{}');
}, 180_000);
afterEach(() => {
  for (const terminal of terminals.splice(0)) terminal.close();
});
afterAll(() => files.cleanup());

/** A whole frame is on screen once the status line (drawn last) is there. */
const FRAME = /waiting for you[\s\S]*\? Ship this build\?[\s\S]*\^C pause/;

/** What a clean frame of the waiting run looks like at `columns`, checked line by line. */
function expectCleanFrame(screen: string, columns: number): void {
  const lines = screen.split('\n');
  // Exactly one frame: one header, one pipeline pane, one gate box, one status line.
  expect(lines.filter((l) => l.startsWith('◆ release'))).toHaveLength(1);
  expect(lines.filter((l) => l.startsWith('goal: Ship the health endpoint'))).toHaveLength(1);
  expect(lines.filter((l) => l.startsWith('╭'))).toHaveLength(1);
  expect(lines.filter((l) => l.startsWith('╔'))).toHaveLength(1);
  // The evidence beside the gate: the build node's output.
  expect(lines.filter((l) => l.startsWith('┌'))).toHaveLength(1);
  expect(screen).toMatch(/│ evidence: build /);
  expect(screen).toMatch(/│ compiling\s+│/);
  expect(lines.filter((l) => /\^C pause/.test(l))).toHaveLength(1);
  const header = lines.find((l) => l.startsWith('◆ release')) ?? '';
  expect(header).toMatch(/waiting for you$/);
  // Every box line spans the full width with both borders: nothing wrapped, nothing torn.
  const boxed = lines.filter((l) => /^[│║╭╰╔╚┌└]/.test(l));
  expect(boxed.length).toBeGreaterThanOrEqual(2 + 5 + 2 + 4);
  for (const line of boxed) {
    expect([...line].length, line).toBe(columns);
    expect(line, line).toMatch(/[│║╮╯╗╝┐┘]$/);
  }
  // No line on screen is a wrapped remainder: each non-empty line starts like one the TUI draws.
  for (const line of lines.filter((l) => l.trim() !== '')) {
    expect(line, `unexpected line: ${JSON.stringify(line)}`).toMatch(
      /^(✓ |◆ release|goal: |[│║╭╰╔╚┌└]|no model )/,
    );
  }
  // Narrower than 80 columns the pane leaves out each node's kind.
  const kind = (name: string) => (columns < 80 ? '' : `\\s+${name}`);
  expect(screen).toMatch(new RegExp(`│\\s+✓ start${kind('start')}`));
  expect(screen).toMatch(new RegExp(`│\\s+✓ Plan${kind('agent')}`));
  expect(screen).toMatch(new RegExp(`│\\s+✓ build${kind('tool')}`));
  expect(screen).toMatch(new RegExp(`│\\s+[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Ship this build\\?${kind('gate')}`));
  expect(screen).toMatch(new RegExp(`│\\s+○ done${kind('exit')}`));
  expect(screen).toMatch(/║ \? Ship this build\?/);
  expect(screen).toMatch(/\[A\] Approve → done/);
  expect(screen).toMatch(/\[R\] Revise → plan/);
  // The finished nodes' transcript is still above the frame.
  expect(screen).toMatch(/^✓ build .*Tool completed/m);
}

/** The spinner keeps redrawing: polls until a whole frame at `columns` is clean, else fails with the last screen. */
async function cleanFrameAt(t: TmuxTerminal, columns: number): Promise<string> {
  const until = Date.now() + 15_000;
  for (;;) {
    const screen = t.screen();
    try {
      expectCleanFrame(screen, columns);
      return screen;
    } catch (error) {
      if (Date.now() > until) throw new Error(`${(error as Error).message}\nlast screen:\n${screen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the TUI in a real terminal that is resized (tmux)', () => {
  test('120 → 80 → 120 → 60 → 120 columns while a gate waits: each size shows one clean frame, the scrollback no torn ones; the gate still answers', async () => {
    const t = openTmux(`${attractor} run gate.dot --scenario scenario.json --logs-dir runs-resize`, {
      cwd: files.dir,
      columns: 120,
      rows: 40,
    });
    terminals.push(t);
    await t.waitFor(FRAME);
    await cleanFrameAt(t, 120);

    t.resize(80);
    const narrow = await cleanFrameAt(t, 80);
    // The status line's short form for narrow terminals.
    expect(narrow).toContain('↑↓ ⏎ ? · ^C pause');

    t.resize(120);
    await cleanFrameAt(t, 120);

    // Down to 60 columns and back: the scrollback holds the run's transcript and one frame, no remains
    // of the frames the terminal re-wrapped (issue 39).
    t.resize(60);
    await cleanFrameAt(t, 60);
    t.resize(120);
    await cleanFrameAt(t, 120);
    const history = t.history().split('\n');
    for (const entry of [
      /^✓ start /,
      /^✓ Plan /,
      /^✓ build /,
      /^◆ release/,
      /^goal: /,
      /^╭/,
      /^╰/,
      /^╔/,
      /^╚/,
    ])
      expect(
        history.filter((line) => entry.test(line)),
        `${entry}\n${history.join('\n')}`,
      ).toHaveLength(1);
    expect(history.filter((line) => /^│\s+✓ start/.test(line))).toHaveLength(1);

    // Tab gives the keys to the evidence: an option's key then answers nothing; Esc gives them back.
    t.keys('Tab');
    await t.waitFor(/Esc: the options/);
    t.keys('a');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(t.screen()).toMatch(/waiting for you/);
    t.keys('Escape');
    await t.waitFor(/Tab: scroll this/);
    t.keys('a');
    const after = await t.waitFor(/EXIT=\d+/);
    expect(after).toContain('EXIT=0');
    expect(after).toMatch(/Completed at done \(quality: clean\)/);
    const root = path.join(files.dir, 'runs-resize');
    expect(existsSync(root) && readdirSync(root).length > 0).toBe(true);
  }, 120_000);
});
