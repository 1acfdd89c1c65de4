import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { createSimulatedBackend } from '../../src/actors/simulated/simulated-backend.js';
import { startPipeline } from '../../src/run/engine.js';
import { eventOf, eventsOf, runDot, tempDir } from '../helpers/run-helpers.js';

describe('manager loop: stack.child_workdir, steering files and stack.child_autostart', () => {
  it("runs the child's tools in stack.child_workdir and steers into the child's stage directory", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'services', 'api'), { recursive: true });
    writeFileSync(
      join(dir, 'child.dot'),
      `digraph child {
        start [shape=Mdiamond]
        where [shape=parallelogram, tool_command="pwd > where.txt"]
        hold [type="hold"]
        exit [shape=Msquare]
        start -> where -> hold -> exit
      }`,
    );
    const parent = `digraph parent {
      stack.child_workdir="services/api"
      start [shape=Mdiamond]
      boss [shape=house, stack.child_dotfile="child.dot", manager.poll_interval="10ms",
            manager.actions="observe,steer,wait", prompt="Keep it small"]
      exit [shape=Msquare]
      start -> boss -> exit
    }`;
    const file = join(dir, 'parent.dot');
    writeFileSync(file, parent);
    // The child's `hold` node waits until the manager's steering file is there.
    const registry = createDefaultRegistry().register('hold', async ({ stageDir }) => {
      for (let i = 0; i < 200 && !existsSync(join(stageDir, 'steering.md')); i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      return { status: 'success', notes: readFileSync(join(stageDir, 'steering.md'), 'utf8').trim() };
    });
    const run = await runDot(parent, { file, registry, workingDir: dir, runDir: join(dir, 'run') });
    expect(run.result.status).toBe('completed');
    expect(readFileSync(join(dir, 'services', 'api', 'where.txt'), 'utf8').trim()).toBe(
      realpathSync(join(dir, 'services', 'api')),
    );
    const steering = join(run.runDir, 'boss', 'child', 'hold', 'steering.md');
    expect(readFileSync(steering, 'utf8')).toBe('Keep it small\n');
    const held = eventOf(run.events, 'node.complete', 'hold');
    expect(held?.data.notes).toBe('Keep it small');
    const steer = eventsOf(run.events, 'manager.steer').find((e) => e.data.child_node === 'hold');
    expect(steer?.data.file).toBe(steering);
    // The child's folder is reported, but not under the key an observing manager reads as its input.
    expect(run.result.context['manager.child.run_dir']).toBe(join(run.runDir, 'boss', 'child'));
    expect(run.result.context['stack.child.run_dir']).toBeUndefined();
  });

  it('with stack.child_autostart=false, observes a run started elsewhere through its run directory', async () => {
    const dir = tempDir();
    const childDir = join(dir, 'child-run');
    let release = (): void => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The child: started on its own, as another process or an earlier tool node would.
    const child = startPipeline({
      source: `digraph child {
        start [shape=Mdiamond]
        slow [type="slow"]
        exit [shape=Msquare]
        start -> slow -> exit
      }`,
      runDir: childDir,
      durable: false,
      registry: createDefaultRegistry().register('slow', async () => {
        await released;
        return { status: 'success' };
      }),
    });
    const parentRegistry = createDefaultRegistry().register('locate', async () => ({
      status: 'success',
      context_updates: { 'stack.child.run_dir': 'child-run' },
    }));
    const parent = `digraph parent {
      start [shape=Mdiamond]
      locate [type="locate"]
      watch [shape=house, stack.child_autostart=false, manager.poll_interval="10ms",
             manager.actions="observe,steer,wait", prompt="Hurry up"]
      exit [shape=Msquare]
      start -> locate -> watch -> exit
    }`;
    const steerFile = join(childDir, 'slow', 'steering.md');
    const run = runDot(parent, {
      registry: parentRegistry,
      backend: createSimulatedBackend(),
      workingDir: dir,
      onEvent: (e) => {
        // Once the manager has steered the child's running node, let the child finish.
        if (e.kind === 'manager.steer') release();
      },
    });
    const { result, events } = await run;
    expect((await child.result).status).toBe('completed');
    expect(result.status).toBe('completed');
    expect(readFileSync(steerFile, 'utf8')).toBe('Hurry up\n');
    // It started no child of its own: no event of a child actor, no child folder.
    expect(events.some((e) => e.data['parent'] !== undefined)).toBe(false);
    expect(existsSync(join(result.runDir, 'watch', 'child'))).toBe(false);
    const cycles = events.filter((e) => e.kind === 'manager.cycle').map((e) => e.data['child_state']);
    expect(cycles[0]).toBe('running');
    expect(cycles.at(-1)).toBe('completed');
    expect(result.context['manager.child.run_dir']).toBe(childDir);
    expect(result.context['stack.child.status']).toBe('completed');
  });
});
