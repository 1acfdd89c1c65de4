import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QueueInterviewer } from '../../src/actors/interviewers/queue.js';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { eventOf, runDot, tempDir } from '../helpers/run-helpers.js';

describe('parallel fan-out and fan-in', () => {
  it('runs branches really concurrently: each branch waits until all three have started', async () => {
    // A barrier instead of a stopwatch: run one at a time, the first branch would wait for ever (and
    // fail after the safety timeout); run concurrently, all three meet.
    let started = 0;
    let meet: () => void = () => {};
    const allStarted = new Promise<void>((resolve) => {
      meet = resolve;
    });
    const registry = createDefaultRegistry().register('meet', async ({ node, stageDir }) => {
      started += 1;
      if (started === 3) meet();
      const met = await Promise.race([
        allStarted.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000).unref()),
      ]);
      writeFileSync(join(stageDir, 'stdout.log'), node.id);
      return met ? { status: 'success' } : { status: 'fail', failure_reason: 'branches ran one at a time' };
    });
    const dot = `digraph par {
      start [shape=Mdiamond]
      fan [shape=component, max_parallel=3]
      a [type="meet"]
      b [type="meet"]
      c [type="meet"]
      join [shape=tripleoctagon]
      exit [shape=Msquare]
      start -> fan
      fan -> a -> join
      fan -> b -> join
      fan -> c -> join
      join -> exit
    }`;
    const run = await runDot(dot, { registry });
    expect(run.result.status).toBe('completed');
    const fan = eventOf(run.events, 'node.complete', 'fan');
    expect(fan?.data.status).toBe('success');
    // Branch nodes are visible on the one event stream, tagged with their branch.
    const branchStarts = run.events.filter((e) => e.kind === 'node.start' && e.data['branch']);
    expect(branchStarts.map((e) => e.node_id).sort()).toEqual(['a', 'b', 'c']);
    expect(run.kinds).toEqual(
      expect.arrayContaining(['parallel.start', 'parallel.branch.start', 'parallel.complete']),
    );
    // The main run continues at the fan-in, not inside a branch.
    expect(run.visited).toEqual(['start', 'fan', 'join', 'exit']);
    expect(run.result.context['parallel.fan_in.best_id']).toBeDefined();
    expect(existsSync(join(run.result.runDir, 'fan', 'branches', 'a', 'a', 'stdout.log'))).toBe(true);
    expect(Array.isArray(run.result.context['parallel.results'])).toBe(true);
  });

  it('a branch that reaches its fan-in at the step limit fails there; a shorter one stops there', async () => {
    const dot = `digraph par {
      start [shape=Mdiamond]
      fan [shape=component]
      short [shape=parallelogram, tool_command="true"]
      a [shape=parallelogram, tool_command="true"]
      b [shape=parallelogram, tool_command="true"]
      c [shape=parallelogram, tool_command="true"]
      join [shape=tripleoctagon]
      exit [shape=Msquare]
      start -> fan
      fan -> short -> join
      fan -> a -> b -> c -> join
      join -> exit
    }`;
    // Each branch counts its own steps: \`a -> b -> c\` uses all three before reaching the fan-in.
    const run = await runDot(dot, { maxSteps: 3 });
    const results = run.result.context['parallel.results'] as Array<Record<string, unknown>>;
    expect(results.find((r) => r['branch_id'] === 'short')).toMatchObject({
      status: 'success',
      stopped_at: 'join',
    });
    const long = results.find((r) => r['branch_id'] === 'a');
    expect(long?.['status']).toBe('fail');
    expect(String(long?.['failure_reason'])).toMatch(/step limit of 3 reached before join/);
  });

  it('continues from the parallel node straight to its fan-in, not through __dispatch', async () => {
    const dot = `digraph par {
      start [shape=Mdiamond]
      fan [shape=component]
      a [shape=parallelogram, tool_command="true"]
      b [shape=parallelogram, tool_command="true"]
      join [shape=tripleoctagon]
      exit [shape=Msquare]
      start -> fan
      fan -> a -> join
      fan -> b -> join
      join -> exit
    }`;
    // The root actor's state values, microstep by microstep.
    const values: string[] = [];
    const run = await runDot(dot, {
      inspect: (event) => {
        if (event.type === '@xstate.microstep' && event.actorRef.sessionId === event.rootId)
          values.push(JSON.stringify((event.snapshot as unknown as { value: unknown }).value));
      },
    });
    expect(run.result.status).toBe('completed');
    // Once the parallel handler's outcome is recorded, `fan` routes straight into the fan-in.
    const fanRoute = values.lastIndexOf(JSON.stringify({ fan: 'route' }));
    expect(fanRoute).toBeGreaterThan(0);
    expect(values[fanRoute + 1]).toBe(JSON.stringify({ join: 'enter' }));
    expect(values.slice(fanRoute)).not.toContain(JSON.stringify('__dispatch'));
  });

  it('merges branch context updates under the branch id and honours wait_all with a failure', async () => {
    const dot = `digraph par {
      start [shape=Mdiamond]
      fan [shape=component]
      good [shape=parallelogram, tool_command="echo fine"]
      bad [shape=parallelogram, tool_command="exit 4"]
      join [shape=tripleoctagon]
      exit [shape=Msquare]
      start -> fan
      fan -> good -> join
      fan -> bad -> join
      join -> exit
    }`;
    const run = await runDot(dot);
    const fan = eventOf(run.events, 'node.complete', 'fan');
    expect(fan?.data.status).toBe('partial_success');
    expect(String(run.result.context['good.tool.output'])).toContain('fine');
    expect(run.result.context['parallel.fan_in.best_id']).toBe('good');
    expect(run.result.status).toBe('completed');
  });
});

describe('manager loop', () => {
  it('supervises a child pipeline whose human gate reaches the parent interviewer', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'child.dot'),
      `digraph child {
        start [shape=Mdiamond]
        work [prompt="child work"]
        gate [shape=hexagon, label="Keep going?"]
        exit [shape=Msquare]
        start -> work -> gate
        gate -> exit [label="[Y] Yes"]
        gate -> work [label="[N] No"]
      }`,
    );
    const parent = `digraph parent {
      start [shape=Mdiamond]
      boss [shape=house, stack.child_dotfile="child.dot", manager.poll_interval="20ms", manager.max_cycles=200]
      exit [shape=Msquare]
      start -> boss -> exit
    }`;
    const file = join(dir, 'parent.dot');
    writeFileSync(file, parent);
    const interviewer = new QueueInterviewer(['N', 'Y']);
    const run = await runDot(parent, { file, interviewer });
    expect(run.result.status).toBe('completed');
    const childStarts = run.events.filter((e) => e.kind === 'node.start' && e.data['parent']);
    expect(childStarts.map((e) => e.node_id)).toEqual(['start', 'work', 'gate', 'work', 'gate', 'exit']);
    // The child's events name their manager node, and its stage folders live under it.
    expect(new Set(childStarts.map((e) => e.data['parent']))).toEqual(new Set(['boss']));
    expect(existsSync(join(run.result.runDir, 'boss', 'child', 'work', 'prompt.md'))).toBe(true);
    expect(run.visited).toEqual(['start', 'boss', 'exit']);
  });
});
