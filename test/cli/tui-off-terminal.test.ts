import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { openTmux, type TmuxTerminal } from '../helpers/tmux-terminal.js';
import { tempPipelines } from './temp-pipelines.js';

const GATE = `digraph release {
  start [shape=Mdiamond]
  review [shape=hexagon, label="Ship this build?"]
  rework [label="Rework"]
  done [shape=Msquare]
  start -> review
  review -> done [label="[A] Approve"]
  review -> rework [label="[R] Revise"]
  rework -> done
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

const questionFiles = (runDir: string): string[] => {
  const dir = path.join(runDir, 'questions');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
};

describe('a terminal without the TUI (tmux): plain lines, the gate asked on stderr and in the run directory', () => {
  test.each([
    ['--no-tui', '', 'runs-notui'],
    ['CI set', 'CI=1 ', 'runs-ci'],
    ['--json', '', 'runs-json'],
  ])(
    '%s: the gate is answered by typing its key; exit 0',
    async (name, prefix, logs) => {
      const flag = name.startsWith('--') ? ` ${name}` : '';
      const t = openTmux(
        `${prefix}${attractor} run gate.dot --scenario scenario.json --logs-dir ${logs}${flag}`,
        { cwd: files.dir, columns: 100 },
      );
      terminals.push(t);
      const asking = await t.waitFor(/\[\?\] Ship this build\?[\s\S]*Select/);
      expect(asking).toMatch(/\[A\] Approve/);
      expect(asking).not.toContain('╭');
      if (name === '--json') expect(asking).toMatch(/^\{"kind":"pipeline\.start"/m);
      else expect(asking).toMatch(/▶ release/);
      // Published while it waits, so `attractor attach` could answer instead.
      expect(questionFiles(path.join(files.dir, logs))).toHaveLength(1);
      t.keys('r', 'Enter');
      const after = await t.waitFor(/EXIT=\d+/);
      expect(after).toContain('EXIT=0');
      expect(after).toMatch(/Completed at done/);
      expect(questionFiles(path.join(files.dir, logs))).toEqual([]);
      const answers = readdirSync(path.join(files.dir, logs, 'answers')).filter((f) => f.endsWith('.json'));
      expect(answers).toHaveLength(1);
    },
    120_000,
  );
});
