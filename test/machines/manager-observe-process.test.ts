import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { runDot, tempDir } from '../helpers/run-helpers.js';

beforeAll(() => ensureDist(), 180_000);

describe('stack.child_autostart=false across processes', () => {
  it('observes and steers a child run another attractor process is executing', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'child.dot'),
      `digraph child {
        start [shape=Mdiamond]
        work [shape=parallelogram, tool_command="sleep 2"]
        exit [shape=Msquare]
        start -> work -> exit
      }`,
    );
    writeFileSync(join(dir, 'none.json'), '{}');
    // The child: a real `attractor run` in its own process (scenario mode: tools run for real).
    const child = spawn(
      process.execPath,
      [BIN, 'run', 'child.dot', '--scenario', 'none.json', '--logs-dir', 'child-run', '--no-tui'],
      { cwd: dir, stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));

    const registry = createDefaultRegistry().register('locate', async () => ({
      status: 'success',
      context_updates: { 'stack.child.run_dir': 'child-run' },
    }));
    const run = await runDot(
      `digraph parent {
        start [shape=Mdiamond]
        locate [type="locate"]
        watch [shape=house, stack.child_autostart=false, manager.poll_interval="50ms",
               manager.actions="observe,steer,wait", prompt="Hurry up"]
        exit [shape=Msquare]
        start -> locate -> watch -> exit
      }`,
      { registry, workingDir: dir },
    );
    expect(await exited).toBe(0);
    expect(run.result.status).toBe('completed');
    const cycles = run.events
      .filter((e) => e.kind === 'manager.cycle')
      .map((e) => `${String(e.data['child_state'])}@${String(e.data['child_node'])}`);
    expect(cycles).toContain('running@work');
    expect(cycles.at(-1)).toMatch(/^completed@/);
    // Steering went into the other process's stage directory of the node it was running.
    expect(readFileSync(join(dir, 'child-run', 'work', 'steering.md'), 'utf8')).toBe('Hurry up\n');
    expect(run.result.context['manager.child.run_dir']).toBe(join(dir, 'child-run'));
  }, 60_000);
});
