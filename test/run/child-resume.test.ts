import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AutoApproveInterviewer } from '../../src/actors/interviewers/auto-approve.js';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { createSimulatedBackend } from '../../src/actors/simulated/simulated-backend.js';
import { resumePipeline, startPipeline } from '../../src/run/engine.js';
import { tempDir } from '../helpers/run-helpers.js';

const PARENT = `digraph parent {
  start [shape=Mdiamond]
  manage [shape=house, stack.child_dotfile="child.dot", manager.poll_interval="10ms", manager.actions="observe"]
  exit [shape=Msquare]
  start -> manage -> exit
}`;
const CHILD = `digraph child {
  start [shape=Mdiamond]
  one [type="one"]
  two [type="two"]
  exit [shape=Msquare]
  start -> one -> two -> exit
}`;

describe("a manager loop's child pipeline after an interruption", () => {
  it('continues from its own checkpoint: nodes it completed do not run again', async () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'parent.dot');
    writeFileSync(file, PARENT);
    writeFileSync(path.join(dir, 'child.dot'), CHILD);
    const runs = { one: 0, two: 0 };
    let stop = (): void => {};
    const registry = createDefaultRegistry()
      .register('one', async () => {
        runs.one++;
        return { status: 'success', context_updates: { made: 'by one' } };
      })
      .register('two', async ({ signal, context }) => {
        runs.two++;
        if (runs.two === 1) {
          stop(); // the run dies while the child is in its second node
          await new Promise((_, reject) =>
            signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
          );
        }
        return { status: 'success', notes: `saw ${context.getString('made')}` };
      });
    const options = {
      registry,
      backend: createSimulatedBackend(),
      interviewer: new AutoApproveInterviewer(),
      durable: false,
    };
    const runDir = path.join(dir, 'run');
    const first = startPipeline({ ...options, source: PARENT, file, runDir });
    stop = () => setTimeout(() => first.cancel(), 20);
    expect((await first.result).status).toBe('cancelled');
    expect(runs).toEqual({ one: 1, two: 1 });
    expect(existsSync(path.join(runDir, 'manage', 'child', 'checkpoint.json'))).toBe(true);

    const resumed = await resumePipeline({ ...options, from: runDir }).result;
    expect(resumed.status).toBe('completed');
    expect(runs).toEqual({ one: 1, two: 2 });
    // The manager's visit is complete: a later visit would start a new child.
    expect(existsSync(path.join(runDir, 'manage', 'child', 'checkpoint.json'))).toBe(false);
  });
});
